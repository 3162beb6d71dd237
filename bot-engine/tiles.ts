// The 24 tile types, written in RULES.md's own notation and compiled once into flat tables
// indexed by (type, rotation) so the hot paths never parse or allocate.

export const KIND_CITY = 0;
export const KIND_ROAD = 1;
export const KIND_FIELD = 2;
export const KIND_MONASTERY = 3;

/** Edge letters as 2-bit codes; 0 means "no tile there" in a cell's constraint. */
const EDGE_CITY = 1;
const EDGE_ROAD = 2;
const EDGE_FIELD = 3;

export const EDGES = ['N', 'E', 'S', 'W'] as const;
export const CORNERS = ['NE', 'SE', 'SW', 'NW'] as const;

interface TileSource {
  type: string;
  count: number;
  edges: string;
  cities: string;
  roads: string;
  monastery: boolean;
  pennant: boolean;
  fields: string;
}

// Straight from RULES.md's tile table (rotation 0).
const SOURCE: TileSource[] = [
  { type: 'A', count: 2, edges: 'FFRF', cities: '-', roads: 'S', monastery: true, pennant: false, fields: 'NE SE SW NW' },
  { type: 'B', count: 4, edges: 'FFFF', cities: '-', roads: '-', monastery: true, pennant: false, fields: 'NE SE SW NW' },
  { type: 'C', count: 1, edges: 'CCCC', cities: 'N+E+S+W', roads: '-', monastery: false, pennant: true, fields: '-' },
  { type: 'D', count: 4, edges: 'CRFR', cities: 'N', roads: 'W-E', monastery: false, pennant: false, fields: 'NE NW -> N; SE SW' },
  { type: 'E', count: 5, edges: 'CFFF', cities: 'N', roads: '-', monastery: false, pennant: false, fields: 'NE SE SW NW -> N' },
  { type: 'F', count: 2, edges: 'FCFC', cities: 'E+W', roads: '-', monastery: false, pennant: true, fields: 'NE NW -> E+W; SE SW -> E+W' },
  { type: 'G', count: 1, edges: 'FCFC', cities: 'E+W', roads: '-', monastery: false, pennant: false, fields: 'NE NW -> E+W; SE SW -> E+W' },
  { type: 'H', count: 3, edges: 'CFCF', cities: 'N; S', roads: '-', monastery: false, pennant: false, fields: 'NE SE SW NW -> N, S' },
  { type: 'I', count: 2, edges: 'CFFC', cities: 'N; W', roads: '-', monastery: false, pennant: false, fields: 'NE SE SW -> N, W' },
  { type: 'J', count: 3, edges: 'CRRF', cities: 'N', roads: 'E-S', monastery: false, pennant: false, fields: 'NE SW NW -> N; SE' },
  { type: 'K', count: 3, edges: 'CFRR', cities: 'N', roads: 'S-W', monastery: false, pennant: false, fields: 'NE SE NW -> N; SW' },
  { type: 'L', count: 3, edges: 'CRRR', cities: 'N', roads: 'E; S; W', monastery: false, pennant: false, fields: 'NE NW -> N; SE; SW' },
  { type: 'M', count: 2, edges: 'CFFC', cities: 'N+W', roads: '-', monastery: false, pennant: true, fields: 'NE SE SW -> N+W' },
  { type: 'N', count: 3, edges: 'CFFC', cities: 'N+W', roads: '-', monastery: false, pennant: false, fields: 'NE SE SW -> N+W' },
  { type: 'O', count: 2, edges: 'CRRC', cities: 'N+W', roads: 'E-S', monastery: false, pennant: true, fields: 'NE SW -> N+W; SE' },
  { type: 'P', count: 3, edges: 'CRRC', cities: 'N+W', roads: 'E-S', monastery: false, pennant: false, fields: 'NE SW -> N+W; SE' },
  { type: 'Q', count: 1, edges: 'CCFC', cities: 'N+E+W', roads: '-', monastery: false, pennant: true, fields: 'SE SW -> N+E+W' },
  { type: 'R', count: 3, edges: 'CCFC', cities: 'N+E+W', roads: '-', monastery: false, pennant: false, fields: 'SE SW -> N+E+W' },
  { type: 'S', count: 2, edges: 'CCRC', cities: 'N+E+W', roads: 'S', monastery: false, pennant: true, fields: 'SE -> N+E+W; SW -> N+E+W' },
  { type: 'T', count: 1, edges: 'CCRC', cities: 'N+E+W', roads: 'S', monastery: false, pennant: false, fields: 'SE -> N+E+W; SW -> N+E+W' },
  { type: 'U', count: 8, edges: 'FRFR', cities: '-', roads: 'W-E', monastery: false, pennant: false, fields: 'NE NW; SE SW' },
  { type: 'V', count: 9, edges: 'FFRR', cities: '-', roads: 'S-W', monastery: false, pennant: false, fields: 'NE SE NW; SW' },
  { type: 'W', count: 4, edges: 'FRRR', cities: '-', roads: 'E; S; W', monastery: false, pennant: false, fields: 'NE NW; SE; SW' },
  { type: 'X', count: 1, edges: 'RRRR', cities: '-', roads: 'N; E; S; W', monastery: false, pennant: false, fields: 'NE; SE; SW; NW' },
];

export const TILE_TYPES = 24;
export const TILE_NAMES: readonly string[] = SOURCE.map((t) => t.type);
export const TILE_COUNTS: readonly number[] = SOURCE.map((t) => t.count);
export const TOTAL_TILES = 72;
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

export function edgeIndex(name: string): number {
  const i = (EDGES as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`bad edge ${name}`);
  return i;
}

function cornerIndex(name: string): number {
  const i = (CORNERS as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`bad corner ${name}`);
  return i;
}

export function groups(text: string): string[] {
  return text === '-' ? [] : text.split(';').map((s) => s.trim());
}

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

export const TILES: readonly TileDef[] = SOURCE.map(compile);

// ---- Tables by (type, rotation); rotation index k = degrees / 90, clockwise. ----
// Half-edges, clockwise from the north edge's west half: 0 N-w, 1 N-e, 2 E-n, 3 E-s, 4 S-e, 5 S-w, 6 W-s, 7 W-n.
// Each half lies in one corner: NW, NE, NE, SE, SE, SW, SW, NW.
export const HALF_CORNER = [3, 0, 0, 1, 1, 2, 2, 3];

const TR = TILE_TYPES * 4;
/** Packed edge codes at board orientation: N | E<<2 | S<<4 | W<<6. */
export const ROT_EDGES = new Uint8Array(TR);
/** Local segment on each board edge (city or road), or -1 for a field edge. [tr*4 + edge] */
export const ROT_EDGE_SEG = new Int8Array(TR * 4);
/** Local field segment on each board half-edge, or -1. [tr*8 + half] */
export const ROT_HALF_FIELD = new Int8Array(TR * 8);
/** Canonical follower spot name of each local segment in board orientation. [tr][local] */
export const ROT_SPOT_NAMES: string[][] = [];
/** Every valid spot name (any edge or corner reaching a feature) → local segment. [tr] */
export const ROT_SPOT_LOOKUP: Map<string, number>[] = [];
/** Bit k set when rotation k is not a symmetric duplicate of a smaller one. [type] */
export const DISTINCT_ROTATIONS = new Uint8Array(TILE_TYPES);
/** Per type: segment count, kinds, initial open edges, pennant flags (rotation-independent). */
export const SEG_COUNT = new Uint8Array(TILE_TYPES);
export const SEG_KIND = new Uint8Array(TILE_TYPES * MAX_SEGMENTS);
export const SEG_OPEN = new Uint8Array(TILE_TYPES * MAX_SEGMENTS);
export const SEG_PENNANT = new Uint8Array(TILE_TYPES * MAX_SEGMENTS);
export const HAS_MONASTERY = new Uint8Array(TILE_TYPES);
/** Bitmask of local city segments each field touches. */
export const SEG_FIELD_CITIES = new Uint8Array(TILE_TYPES * MAX_SEGMENTS);
/** FIT[type*256 + constraint] = bitmask of distinct rotations whose edges satisfy the constraint. */
export const FIT = new Uint8Array(TILE_TYPES * 256);

function spotNames(kind: number, boardSides: number[]): string[] {
  if (kind === KIND_MONASTERY) return ['monastery'];
  const sorted = [...boardSides].sort((a, b) => a - b);
  if (kind === KIND_FIELD) return sorted.map((c) => `field:${CORNERS[c]}`);
  return sorted.map((e) => `${kind === KIND_CITY ? 'city' : 'road'}:${EDGES[e]}`);
}

function buildTables(): void {
  for (let t = 0; t < TILE_TYPES; t++) {
    const def = TILES[t];
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
      }
      ROT_SPOT_NAMES.push(names);
      ROT_SPOT_LOOKUP.push(lookup);
      const signature = `${packed}|${sig.sort().join(' ')}`;
      if (!signatures.includes(signature)) DISTINCT_ROTATIONS[t] |= 1 << k;
      signatures.push(signature);
    }
    for (let code = 0; code < 256; code++) {
      let mask = 0;
      for (let k = 0; k < 4; k++) {
        if (!(DISTINCT_ROTATIONS[t] & (1 << k))) continue;
        if (fits(ROT_EDGES[t * 4 + k], code)) mask |= 1 << k;
      }
      FIT[t * 256 + code] = mask;
    }
  }
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

export function tileIndex(name: string): number {
  return TILE_NAMES.indexOf(name);
}

/** Rotation in degrees (0, 90, 180, 270) → quarter turns, or -1. */
export function rotationIndex(degrees: unknown): number {
  return degrees === 0 || degrees === 90 || degrees === 180 || degrees === 270 ? degrees / 90 : -1;
}
