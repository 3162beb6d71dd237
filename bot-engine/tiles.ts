// The 24 tile types, written in RULES.md's own notation and compiled once into flat tables
// indexed by (type, rotation) so the hot paths never parse or allocate.

import {
  BASE_SOURCE,
  CORNERS,
  EDGE_CITY,
  EDGE_FIELD,
  EDGE_ROAD,
  EDGES,
  HALF_CORNER,
  HALF_NAMES,
  KIND_CITY,
  KIND_FIELD,
  KIND_MONASTERY,
  KIND_ROAD,
  type TileSource,
  cornerIndex,
  edgeIndex,
  groups,
} from './base-tiles.ts';
import { EDGE_RIVER, EXPANSION_TILES, type ExpansionTileDef, KIND_GARDEN, MOD_CATHEDRAL, MOD_INN, expansionRotation, expansionSpots } from './expansion-tiles.ts';

export { CORNERS, EDGES, HALF_CORNER, KIND_CITY, KIND_FIELD, KIND_GARDEN, KIND_MONASTERY, KIND_ROAD, edgeIndex, groups };

/** The base game's types A…X (`TILE_NAMES`, `TILE_COUNTS`, `TILES` describe these only). */
export const TILE_TYPES = 24;
export const TILE_NAMES: readonly string[] = BASE_SOURCE.map((t) => t.type);
export const TILE_COUNTS: readonly number[] = BASE_SOURCE.map((t) => t.count);
/** Every type in the flat tables: the base types, then expansion-tiles.ts's (Eg…Vg, RA…RJg, IA…IR). */
export const TYPE_NAMES: readonly string[] = [...TILE_NAMES, ...EXPANSION_TILES.map((d) => d.name)];
export const TYPE_COUNT = TYPE_NAMES.length;
/** Tiles in a base game. */
export const TOTAL_TILES = 72;
/** Tiles in the largest game (the River and Inns & Cathedrals: 72 - 1 + 12 + 18). */
export const MAX_TILES = 101;
export const START_TYPE = 3; // D
/** Most local features on one tile (X: four roads and four fields). */
export const MAX_SEGMENTS = 8;

/** One feature piece on a tile at rotation 0. */
export interface Segment {
  kind: number;
  /** Edges (0..3 = N,E,S,W) for cities and roads; corners (0..3 = NE,SE,SW,NW) for fields. */
  sides: number[];
  pennant: boolean;
  /** For fields: local indices of the city segments it touches. */
  cities: number[];
}

export interface TileDef {
  name: string;
  count: number;
  edges: number[]; // N,E,S,W edge codes at rotation 0
  segments: Segment[];
}

const letterCode: Record<string, number> = { C: EDGE_CITY, R: EDGE_ROAD, F: EDGE_FIELD };

function compile(src: TileSource): TileDef {
  const segments: Segment[] = [];
  for (const g of groups(src.cities)) {
    segments.push({ kind: KIND_CITY, sides: g.split('+').map(edgeIndex), pennant: src.pennant, cities: [] });
  }
  const cityCount = segments.length;
  const cityOnEdge = (e: number) => segments.findIndex((s, i) => i < cityCount && s.sides.includes(e));
  for (const g of groups(src.roads)) {
    segments.push({ kind: KIND_ROAD, sides: g.split('-').map(edgeIndex), pennant: false, cities: [] });
  }
  for (const g of groups(src.fields)) {
    const [corners, touching] = g.split('->').map((s) => s.trim());
    const cities = new Set<number>();
    // "N+E+W" names one city by its edges; "N, S" names two; either way, look each edge up.
    for (const part of (touching ?? '').split(/[,+\s]+/).filter(Boolean)) {
      const c = cityOnEdge(edgeIndex(part));
      if (c < 0) throw new Error(`${src.type}: field touches no city at ${part}`);
      cities.add(c);
    }
    segments.push({ kind: KIND_FIELD, sides: corners.split(/\s+/).map(cornerIndex), pennant: false, cities: [...cities] });
  }
  if (src.monastery) segments.push({ kind: KIND_MONASTERY, sides: [], pennant: false, cities: [] });
  return { name: src.type, count: src.count, edges: [...src.edges].map((c) => letterCode[c]), segments };
}

export const TILES: readonly TileDef[] = BASE_SOURCE.map(compile);

// ---- Tables by (type, rotation); rotation index k = degrees / 90, clockwise. ----
const TR = TYPE_COUNT * 4;
/** Packed edge codes at board orientation: N | E<<2 | S<<4 | W<<6 (a river edge reads as field:
 * only river tiles ever meet one, and their placements are checked at the river's open end). */
export const ROT_EDGES = new Uint8Array(TR);
/** Board edges (bit d) that are river edges. [tr] */
export const ROT_RIVER = new Uint8Array(TR);
/** Where the river leaves a tile it enters by board edge `in`: the other end of that run, -1 at
 * the lake (the run ends on the tile), -2 when `in` is no river edge. [tr*4 + in] */
export const ROT_RIVER_OUT = new Int8Array(TR * 4).fill(-2);
/** 1 for river types (RA…RJg). [type] */
export const IS_RIVER = new Uint8Array(TYPE_COUNT);
/** Local segment on each board edge (city or road), or -1 for a field or river edge. [tr*4 + edge] */
export const ROT_EDGE_SEG = new Int8Array(TR * 4);
/** Local field segment on each board half-edge, or -1. [tr*8 + half] */
export const ROT_HALF_FIELD = new Int8Array(TR * 8);
/** Canonical follower spot name of each local segment in board orientation. [tr][local] */
export const ROT_SPOT_NAMES: string[][] = [];
/** Every valid spot name (any edge or corner reaching a feature) → local segment. [tr] */
export const ROT_SPOT_LOOKUP: Map<string, number>[] = [];
/** Bit k set when rotation k is not a symmetric duplicate of a smaller one. [type] */
export const DISTINCT_ROTATIONS = new Uint8Array(TYPE_COUNT);
/** Per type: segment count, kinds, initial open edges, pennant flags (rotation-independent). */
export const SEG_COUNT = new Uint8Array(TYPE_COUNT);
export const SEG_KIND = new Uint8Array(TYPE_COUNT * MAX_SEGMENTS);
export const SEG_OPEN = new Uint8Array(TYPE_COUNT * MAX_SEGMENTS);
export const SEG_PENNANT = new Uint8Array(TYPE_COUNT * MAX_SEGMENTS);
/** Modifier bits of each segment (`MOD_INN`, `MOD_CATHEDRAL`), OR-ed into a feature's root on joins. */
export const SEG_MODS = new Uint8Array(TYPE_COUNT * MAX_SEGMENTS);
export const HAS_MONASTERY = new Uint8Array(TYPE_COUNT);
/** A monastery or a garden, always the tile's last segment: both count their 8 neighbours. */
export const HAS_CLOISTER = new Uint8Array(TYPE_COUNT);
/** Local segments a follower (large or not) may take: all but a garden. [type] */
export const FOLLOWER_SEGS = new Uint8Array(TYPE_COUNT);
/** Bitmask of local city segments each field touches. */
export const SEG_FIELD_CITIES = new Uint8Array(TYPE_COUNT * MAX_SEGMENTS);
/** FIT[type*256 + constraint] = bitmask of distinct rotations whose edges satisfy the constraint. */
export const FIT = new Uint8Array(TYPE_COUNT * 256);

function spotNames(kind: number, boardSides: number[]): string[] {
  if (kind === KIND_MONASTERY) return ['monastery'];
  const sorted = [...boardSides].sort((a, b) => a - b);
  if (kind === KIND_FIELD) return sorted.map((c) => `field:${CORNERS[c]}`);
  return sorted.map((e) => `${kind === KIND_CITY ? 'city' : 'road'}:${EDGES[e]}`);
}

function buildTables(): void {
  for (let t = 0; t < TILE_TYPES; t++) {
    const def = TILES[t];
    HAS_CLOISTER[t] = def.segments.some((s) => s.kind === KIND_MONASTERY) ? 1 : 0;
    SEG_COUNT[t] = def.segments.length;
    def.segments.forEach((s, i) => {
      const j = t * MAX_SEGMENTS + i;
      SEG_KIND[j] = s.kind;
      SEG_OPEN[j] = s.kind === KIND_FIELD ? 0 : s.kind === KIND_MONASTERY ? 8 : s.sides.length;
      SEG_PENNANT[j] = s.pennant ? 1 : 0;
      SEG_FIELD_CITIES[j] = s.cities.reduce((m, c) => m | (1 << c), 0);
      if (s.kind === KIND_MONASTERY) HAS_MONASTERY[t] = 1;
    });
    const signatures: string[] = [];
    for (let k = 0; k < 4; k++) {
      const tr = t * 4 + k;
      let packed = 0;
      for (let e = 0; e < 4; e++) packed |= def.edges[e] << (((e + k) % 4) * 2);
      ROT_EDGES[tr] = packed;
      ROT_EDGE_SEG.fill(-1, tr * 4, tr * 4 + 4);
      ROT_HALF_FIELD.fill(-1, tr * 8, tr * 8 + 8);
      const names: string[] = [];
      const lookup = new Map<string, number>();
      const sig: string[] = [];
      def.segments.forEach((s, i) => {
        const boardSides = s.sides.map((x) => (x + k) % 4);
        if (s.kind === KIND_CITY || s.kind === KIND_ROAD) for (const e of boardSides) ROT_EDGE_SEG[tr * 4 + e] = i;
        const all = spotNames(s.kind, boardSides);
        names.push(all[0]);
        for (const n of all) lookup.set(n, i);
        sig.push(`${s.kind}${s.pennant ? 'p' : ''}:${all.join(',')}`);
      });
      for (let h = 0; h < 8; h++) {
        const boardHalf = h;
        const localHalf = (h - 2 * k + 8) % 8;
        const localEdge = localHalf >> 1;
        if (def.edges[localEdge] === EDGE_CITY) continue;
        const corner = HALF_CORNER[localHalf];
        const f = def.segments.findIndex((s) => s.kind === KIND_FIELD && s.sides.includes(corner));
        if (f < 0) throw new Error(`${def.name}: half ${localHalf} has no field`);
        ROT_HALF_FIELD[tr * 8 + boardHalf] = f;
        // A half-edge names its field on every tile (RULES.md), base tiles included.
        lookup.set(`field:${HALF_NAMES[boardHalf]}`, f);
      }
      ROT_SPOT_NAMES.push(names);
      ROT_SPOT_LOOKUP.push(lookup);
      const signature = `${packed}|${sig.sort().join(' ')}`;
      if (!signatures.includes(signature)) DISTINCT_ROTATIONS[t] |= 1 << k;
      signatures.push(signature);
    }
    buildFit(t);
  }
  for (const [i, def] of EXPANSION_TILES.entries()) buildExpansionType(TILE_TYPES + i, def);
}

function buildFit(t: number): void {
  for (let code = 0; code < 256; code++) {
    let mask = 0;
    for (let k = 0; k < 4; k++) {
      if (!(DISTINCT_ROTATIONS[t] & (1 << k))) continue;
      if (fits(ROT_EDGES[t * 4 + k], code)) mask |= 1 << k;
    }
    FIT[t * 256 + code] = mask;
  }
}

/** An expansion type's rows, from expansion-tiles.ts's definitions (fields by half-edge). */
function buildExpansionType(t: number, def: ExpansionTileDef): void {
  if (def.segments.length > MAX_SEGMENTS) throw new Error(`${def.name}: more than ${MAX_SEGMENTS} segments`);
  SEG_COUNT[t] = def.segments.length;
  IS_RIVER[t] = def.river.length > 0 ? 1 : 0;
  def.segments.forEach((s, i) => {
    const j = t * MAX_SEGMENTS + i;
    const cloister = s.kind === KIND_MONASTERY || s.kind === KIND_GARDEN;
    if (cloister && i !== def.segments.length - 1) throw new Error(`${def.name}: a monastery or garden must be the last segment`);
    SEG_KIND[j] = s.kind;
    SEG_OPEN[j] = s.kind === KIND_FIELD ? 0 : cloister ? 8 : s.sides.length;
    SEG_PENNANT[j] = s.pennant ? 1 : 0;
    SEG_MODS[j] = (s.inn ? MOD_INN : 0) | (s.cathedral ? MOD_CATHEDRAL : 0);
    SEG_FIELD_CITIES[j] = s.cities.reduce((m, c) => m | (1 << c), 0);
    if (s.kind === KIND_MONASTERY) HAS_MONASTERY[t] = 1;
    if (cloister) HAS_CLOISTER[t] = 1;
  });
  const signatures: string[] = [];
  for (let k = 0; k < 4; k++) {
    const tr = t * 4 + k;
    const rot = expansionRotation(def, k);
    let packed = 0;
    for (let e = 0; e < 4; e++) {
      const code = (rot.edges >> (e * 3)) & 7;
      if (code === EDGE_RIVER) ROT_RIVER[tr] |= 1 << e;
      packed |= (code === EDGE_RIVER ? EDGE_FIELD : code) << (e * 2);
    }
    ROT_EDGES[tr] = packed;
    for (const run of def.river) {
      const sides = run.map((e) => (e + k) % 4);
      for (const [i, side] of sides.entries()) ROT_RIVER_OUT[tr * 4 + side] = sides.length === 1 ? -1 : sides[1 - i];
    }
    ROT_EDGE_SEG.set(rot.edgeSeg, tr * 4);
    ROT_HALF_FIELD.set(rot.halfField, tr * 8);
    const { names, lookup } = expansionSpots(def, k);
    ROT_SPOT_NAMES.push(names);
    ROT_SPOT_LOOKUP.push(lookup);
    // The river's edges are in the 3-bit edges, so a spring's four rotations stay apart.
    const sig = def.segments.map(
      (s, i) =>
        `${s.kind}${s.pennant ? 'p' : ''}${s.inn ? 'i' : ''}${s.cathedral ? 'c' : ''}:${[...lookup]
          .filter(([, j]) => j === i)
          .map(([n]) => n)
          .sort()
          .join(',')}`,
    );
    const signature = `${rot.edges}|${sig.sort().join(' ')}`;
    if (!signatures.includes(signature)) DISTINCT_ROTATIONS[t] |= 1 << k;
    signatures.push(signature);
  }
  buildFit(t);
}

/** A constraint holds, per side, 0 (open) or the edge code the tile must show there. */
export function fits(edges: number, constraint: number): boolean {
  for (let e = 0; e < 4; e++) {
    const want = (constraint >> (e * 2)) & 3;
    if (want !== 0 && want !== ((edges >> (e * 2)) & 3)) return false;
  }
  return true;
}

buildTables();
for (let t = 0; t < TYPE_COUNT; t++) {
  for (let i = 0; i < SEG_COUNT[t]; i++) {
    const kind = SEG_KIND[t * MAX_SEGMENTS + i];
    if (kind !== KIND_GARDEN) FOLLOWER_SEGS[t] |= 1 << i;
  }
}

/** The type index of a tile name, base or expansion, or -1. */
export function tileIndex(name: string): number {
  return TYPE_NAMES.indexOf(name);
}

/** Rotation in degrees (0, 90, 180, 270) → quarter turns, or -1. */
export function rotationIndex(degrees: unknown): number {
  return degrees === 0 || degrees === 90 || degrees === 180 || degrees === 270 ? degrees / 90 : -1;
}
