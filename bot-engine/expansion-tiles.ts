// The expansion tiles (The River, Inns & Cathedrals, the Abbot's gardens), written in
// docs/RULES.md's own notation ("Expansions" section) and compiled into plain definitions.
// tiles.ts appends these types (EXPANSION_TILES) to its flat (type, rotation) tables after X, so
// the base types keep their indices. See docs/ENGINE.md, "Expansions".

import { Rng } from './rng.ts';
import type { ExpansionKey } from './expansions/options.ts';
import { BASE_SOURCE, CORNERS, EDGES, edgeIndex, groups, HALF_CORNER, HALF_NAMES, KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD } from './base-tiles.ts';

const BASE_NAMES = BASE_SOURCE.map((t) => t.type);

/** A garden: a feature of its own inside a field, taken only by an abbot; scores like a monastery. */
export const KIND_GARDEN = 4;

/** Modifier bits a feature root gathers from its segments (OR-ed on joins, as pennants add). */
export const MOD_INN = 1;
export const MOD_CATHEDRAL = 2;

/** Edge codes as in tiles.ts, plus the river (`B`, brook). 3 bits a side once wired in. */
export const EDGE_RIVER = 4;
const LETTER_CODE: Record<string, number> = { C: 1, R: 2, F: 3, B: EDGE_RIVER };

/** The expansion a tile row belongs to (expansions/options.ts's keys). */
export type ExpansionSet = ExpansionKey;

/** One row of a RULES.md expansion table, cell for cell (rotation 0). */
export interface ExpansionTileSource {
  type: string;
  set: ExpansionSet;
  /** Copies without the Abbot option, and with it (garden types: 0 → 1; their plain types lose one). */
  count: number;
  countWithAbbot: number;
  edges: string;
  cities: string;
  roads: string;
  /** River edges, written like roads; '-' on non-river tiles. */
  river: string;
  extras: string;
  fields: string;
}

const river = (type: string, count: number, countWithAbbot: number, edges: string, cities: string, roads: string, riv: string, extras: string, fields: string): ExpansionTileSource => ({
  type,
  set: 'river',
  count,
  countWithAbbot,
  edges,
  cities,
  roads,
  river: riv,
  extras,
  fields,
});
const inns = (type: string, count: number, countWithAbbot: number, edges: string, cities: string, roads: string, extras: string, fields: string): ExpansionTileSource => ({
  type,
  set: 'innsCathedrals',
  count,
  countWithAbbot,
  edges,
  cities,
  roads,
  river: '-',
  extras,
  fields,
});

/** RULES.md, "River tiles". */
export const RIVER_SOURCE: readonly ExpansionTileSource[] = [
  river('RA', 1, 1, 'FBFF', '-', '-', 'E', '-', 'NE SE SW NW'),
  river('RB', 1, 1, 'FFFB', '-', '-', 'W', '-', 'NE SE SW NW'),
  river('RC', 1, 1, 'CBCB', 'N; S', '-', 'W-E', '-', 'NE NW -> N; SE SW -> S'),
  river('RD', 1, 1, 'CBRB', 'N', 'S', 'W-E', '-', 'NE -> N; NW -> N; SE; SW'),
  river('RE', 1, 1, 'FBRB', '-', 'S', 'W-E', 'monastery', 'NE NW; SE; SW'),
  river('RF', 1, 1, 'BRBR', '-', 'W-E', 'N-S', '-', 'NE; SE; SW; NW'),
  river('RG', 2, 2, 'FBFB', '-', '-', 'W-E', '-', 'NE NW; SE SW'),
  river('RH', 1, 1, 'CBBC', 'N+W', '-', 'E-S', '-', 'NE SW -> N+W; SE'),
  river('RI', 1, 1, 'RRBB', '-', 'N-E', 'S-W', '-', 'NW SE; NE; SW'),
  river('RJ', 2, 1, 'FFBB', '-', '-', 'S-W', '-', 'NE SE NW; SW'),
  river('RJg', 0, 1, 'FFBB', '-', '-', 'S-W', 'garden', 'NE SE NW; SW'),
];

/** RULES.md, "Inns & Cathedrals tiles". */
export const INNS_SOURCE: readonly ExpansionTileSource[] = [
  inns('IA', 2, 2, 'CCCC', 'N+E+S+W', '-', 'cathedral', '-'),
  inns('IB', 1, 1, 'FRFR', '-', 'E; W', 'monastery', 'NE NW; SE SW'),
  inns('IC', 1, 0, 'CCCC', 'N; E; S; W', '-', '-', 'centre -> N, E, S, W'),
  inns('ICg', 0, 1, 'CCCC', 'N; E; S; W', '-', 'garden', 'centre -> N, E, S, W'),
  inns('ID', 1, 1, 'CCFC', 'N; E; W', '-', '-', 'SE SW -> N, E, W'),
  inns('IE', 1, 1, 'CRCR', 'N; S', 'E; W', '-', 'NE -> N; SE -> S; SW -> S; NW -> N'),
  inns('IF', 1, 1, 'CFCC', 'N+W; S', '-', 'pennant on N+W', 'NE SE -> N+W, S'),
  inns('IG', 1, 1, 'CFFF', 'N', '-', '-', 'E-n E-s -> N; S-e S-w W-s W-n -> N'),
  inns('IH', 1, 1, 'CFRF', 'N', 'S', '-', 'NE SE -> N; SW NW -> N'),
  inns('IJ', 1, 1, 'CRFC', 'N+W', 'E', '-', 'NE -> N+W; SE SW -> N+W'),
  inns('IK', 1, 1, 'RCRC', 'E+W', 'N; S', 'pennant', 'NE -> E+W; SE -> E+W; SW -> E+W; NW -> E+W'),
  inns('IL', 1, 1, 'CFRC', 'N+W', 'S', 'inn on road S', 'SW -> N+W; NE SE -> N+W'),
  inns('IM', 1, 1, 'CFRR', 'N', 'S-W', 'inn on road S-W', 'NE SE NW -> N; SW'),
  inns('IN', 1, 1, 'CRRC', 'N+W', 'E-S', 'pennant; inn on road E-S', 'NE SW -> N+W; SE'),
  inns('IO', 1, 1, 'FRRR', '-', 'E; S; W', 'inn on road E only', 'NE NW; SE; SW'),
  inns('IP', 1, 0, 'FRFR', '-', 'W-E', 'inn on road W-E', 'NE NW; SE SW'),
  inns('IPg', 0, 1, 'FRFR', '-', 'W-E', 'inn on road W-E; garden', 'NE NW; SE SW'),
  inns('IQ', 1, 1, 'FFRR', '-', 'S-W', 'inn on road S-W', 'NE SE NW; SW'),
  inns('IR', 1, 1, 'RRRR', '-', 'N-W; E-S', '-', 'NW; SE; NE SW'),
];

/** RULES.md, "Gardens": a garden copy of a base type (with the Abbot one copy moves to it). */
export const BASE_GARDENS: readonly string[] = ['E', 'H', 'I', 'M', 'N', 'R', 'U', 'V'];

/** One feature piece of an expansion tile at rotation 0. */
export interface ExpansionSegment {
  kind: number;
  /** Cities and roads: edges 0..3 (N,E,S,W). Fields: half-edges 0..7 (N-w, N-e, E-n, E-s, S-e,
   * S-w, W-s, W-n), empty for a centre field. Monastery, garden: empty. */
  sides: number[];
  pennant: boolean;
  inn: boolean;
  cathedral: boolean;
  /** Fields: local indices of the city segments they touch. */
  cities: number[];
}

export interface ExpansionTileDef {
  name: string;
  set: ExpansionSet;
  count: number;
  countWithAbbot: number;
  /** N,E,S,W edge codes at rotation 0 (C 1, R 2, F 3, B 4). */
  edges: number[];
  /** The river's runs: one or two edge lists (a spring or lake has one edge). */
  river: number[][];
  segments: ExpansionSegment[];
}

interface Extras {
  monastery: boolean;
  garden: boolean;
  cathedral: boolean;
  /** undefined: no pennant; '': on every city (the tile's one city); else the city's edges. */
  pennant: string | undefined;
  /** Road edge lists (as written) that have an inn. */
  inns: string[];
}

function parseExtras(type: string, text: string): Extras {
  const out: Extras = { monastery: false, garden: false, cathedral: false, pennant: undefined, inns: [] };
  for (const part of groups(text)) {
    if (part === 'monastery') out.monastery = true;
    else if (part === 'garden') out.garden = true;
    else if (part === 'cathedral') out.cathedral = true;
    else if (part === 'pennant') out.pennant = '';
    else if (part.startsWith('pennant on ')) out.pennant = part.slice('pennant on '.length);
    else if (part.startsWith('inn on road ')) out.inns.push(part.slice('inn on road '.length).replace(/ only$/, ''));
    else throw new Error(`${type}: unknown extra "${part}"`);
  }
  return out;
}

const sameEdges = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

export function compileExpansionTile(src: ExpansionTileSource): ExpansionTileDef {
  const edges = [...src.edges].map((c) => {
    const code = LETTER_CODE[c];
    if (code === undefined) throw new Error(`${src.type}: bad edge letter ${c}`);
    return code;
  });
  const extras = parseExtras(src.type, src.extras);
  const segments: ExpansionSegment[] = [];
  const piece = (kind: number, sides: number[]): ExpansionSegment => ({ kind, sides, pennant: false, inn: false, cathedral: false, cities: [] });
  for (const g of groups(src.cities)) {
    const s = piece(KIND_CITY, g.split('+').map(edgeIndex));
    if (s.sides.some((e) => edges[e] !== 1)) throw new Error(`${src.type}: city ${g} on a non-city edge`);
    s.pennant = extras.pennant === '' || extras.pennant === g;
    s.cathedral = extras.cathedral;
    segments.push(s);
  }
  if (extras.pennant !== undefined && !segments.some((s) => s.pennant)) throw new Error(`${src.type}: pennant on no city`);
  const cityCount = segments.length;
  const cityOnEdge = (e: number) => segments.findIndex((s, i) => i < cityCount && s.sides.includes(e));
  for (const g of groups(src.roads)) {
    const s = piece(KIND_ROAD, g.split('-').map(edgeIndex));
    if (s.sides.some((e) => edges[e] !== 2)) throw new Error(`${src.type}: road ${g} on a non-road edge`);
    s.inn = extras.inns.some((inn) => sameEdges(inn.split('-').map(edgeIndex), s.sides));
    segments.push(s);
  }
  if (extras.inns.length !== segments.filter((s) => s.inn).length) throw new Error(`${src.type}: an inn beside no road`);
  const river = groups(src.river).map((g) => g.split('-').map(edgeIndex));
  for (const run of river) if (run.some((e) => edges[e] !== EDGE_RIVER)) throw new Error(`${src.type}: river on a non-river edge`);
  const claimed = new Set<number>();
  for (const g of groups(src.fields)) {
    const [where, touching] = g.split('->').map((s) => s.trim());
    const halves: number[] = [];
    for (const name of where.split(/\s+/)) {
      if (name === 'centre') continue;
      const half = (HALF_NAMES as readonly string[]).indexOf(name);
      if (half >= 0) {
        halves.push(half);
        continue;
      }
      const corner = (CORNERS as readonly string[]).indexOf(name);
      if (corner < 0) throw new Error(`${src.type}: bad field place ${name}`);
      // A corner covers its half-edges that lie on a non-city edge.
      for (let h = 0; h < 8; h++) if (HALF_CORNER[h] === corner && edges[h >> 1] !== 1) halves.push(h);
    }
    for (const h of halves) {
      if (edges[h >> 1] === 1) throw new Error(`${src.type}: field on a city half-edge`);
      if (claimed.has(h)) throw new Error(`${src.type}: half-edge ${HALF_NAMES[h]} in two fields`);
      claimed.add(h);
    }
    const s = piece(
      KIND_FIELD,
      halves.sort((a, b) => a - b),
    );
    const cities = new Set<number>();
    // "N+E+W" names one city by its edges; "N, S" names two; either way, look each edge up.
    for (const part of (touching ?? '').split(/[,+\s]+/).filter(Boolean)) {
      const c = cityOnEdge(edgeIndex(part));
      if (c < 0) throw new Error(`${src.type}: field touches no city at ${part}`);
      cities.add(c);
    }
    s.cities = [...cities].sort((a, b) => a - b);
    segments.push(s);
  }
  for (let h = 0; h < 8; h++) if (edges[h >> 1] !== 1 && !claimed.has(h)) throw new Error(`${src.type}: half-edge ${HALF_NAMES[h]} in no field`);
  if (extras.monastery) segments.push(piece(KIND_MONASTERY, []));
  if (extras.garden) segments.push(piece(KIND_GARDEN, []));
  return { name: src.type, set: src.set, count: src.count, countWithAbbot: src.countWithAbbot, edges, river, segments };
}

export const RIVER_TILES: readonly ExpansionTileDef[] = RIVER_SOURCE.map(compileExpansionTile);
export const INNS_TILES: readonly ExpansionTileDef[] = INNS_SOURCE.map(compileExpansionTile);

/** The base garden types (Eg…Vg): their plain type's row plus the garden (RULES.md, "Gardens"). */
export const GARDEN_SOURCE: readonly ExpansionTileSource[] = BASE_GARDENS.map((name) => {
  const row = BASE_SOURCE.find((t) => t.type === name)!;
  const extras = [row.monastery ? 'monastery' : '', row.pennant ? 'pennant' : '', 'garden'].filter(Boolean).join('; ');
  return { type: `${name}g`, set: 'abbot', count: 0, countWithAbbot: 1, edges: row.edges, cities: row.cities, roads: row.roads, river: '-', extras, fields: row.fields };
});
export const GARDEN_TILES: readonly ExpansionTileDef[] = GARDEN_SOURCE.map(compileExpansionTile);

/** Every expansion type in the order tiles.ts appends them after X: base gardens, river, Inns & Cathedrals. */
export const EXPANSION_TILES: readonly ExpansionTileDef[] = [...GARDEN_TILES, ...RIVER_TILES, ...INNS_TILES];

/** Copies of each base type in a game: the Abbot moves one copy of 8 types to their garden twin. */
export function baseCounts(options: { abbot: boolean; river: boolean }): Map<string, number> {
  const out = new Map<string, number>();
  BASE_SOURCE.forEach(({ type: name, count }) => {
    let n = count;
    if (options.river && name === 'D') n -= 1; // the spring replaces the start tile
    if (options.abbot && BASE_GARDENS.includes(name)) {
      n -= 1;
      out.set(`${name}g`, 1);
    }
    out.set(name, n);
  });
  return out;
}

/** Which expansions a game plays, by key. */
export type ExpansionOptions = Record<ExpansionKey, boolean>;

function typeCount(def: ExpansionTileDef, abbot: boolean): number {
  return abbot ? def.countWithAbbot : def.count;
}

/** The bag's sections by tile name, unshuffled (docs/ENGINE.md, "Records with the expansions"): the land
 * section (base types A…X without the start tile's D, each garden type right after its plain
 * type; then IA…IR), and with the River the river section (RC…RJ/RJg; the spring is on the board,
 * the lake comes after the section). */
export function bagSections(options: ExpansionOptions): { river: string[]; land: string[] } {
  const land: string[] = [];
  const base = baseCounts(options);
  for (const name of BASE_NAMES) {
    // The start tile's D is on the board (or, with the River, back in the box).
    const n = (base.get(name) ?? 0) - (name === 'D' && !options.river ? 1 : 0);
    for (let i = 0; i < n; i++) land.push(name);
    for (let i = 0; i < (base.get(`${name}g`) ?? 0); i++) land.push(`${name}g`);
  }
  if (options.innsCathedrals) for (const def of INNS_TILES) for (let i = 0; i < typeCount(def, options.abbot); i++) land.push(def.name);
  const river: string[] = [];
  if (options.river) for (const def of RIVER_TILES) if (def.name !== 'RA' && def.name !== 'RB') for (let i = 0; i < typeCount(def, options.abbot); i++) river.push(def.name);
  return { river, land };
}

/** The draw order by tile name: river section, the lake RB, then the land section. With a seed,
 * one `Rng(seed)` shuffles the river section, then (continuing) the land section, by Fisher–Yates
 * from the last slot down; without the River this is exactly the base game's `shuffledBag`. */
export function expansionBag(options: ExpansionOptions, seed?: string): string[] {
  const { river, land } = bagSections(options);
  if (seed !== undefined) {
    const rng = new Rng(seed);
    rng.shuffle(river);
    rng.shuffle(land);
  }
  return options.river ? [...river, 'RB', ...land] : land;
}

/** Follower spot names of an expansion tile's segments at rotation `k` (RULES.md, "Notation added
 * for the expansions"): `names[i]` is segment i's canonical name (for a field: its first corner in
 * the order NE, SE, SW, NW that holds only this field, else its first half-edge N-w … W-n, else
 * `centre`), `lookup` every valid name → segment. The river has no spot. */
export function expansionSpots(def: ExpansionTileDef, k: number): { names: string[]; lookup: Map<string, number> } {
  const names: string[] = [];
  const lookup = new Map<string, number>();
  // The fields in each board corner, from the board half-edges each field covers.
  const fieldsInCorner: Set<number>[] = [new Set(), new Set(), new Set(), new Set()];
  def.segments.forEach((s, i) => {
    if (s.kind === KIND_FIELD) for (const h of s.sides) fieldsInCorner[HALF_CORNER[(h + 2 * k) % 8]].add(i);
  });
  def.segments.forEach((s, i) => {
    const all: string[] = [];
    if (s.kind === KIND_MONASTERY) all.push('monastery');
    else if (s.kind === KIND_GARDEN) all.push('garden');
    else if (s.kind === KIND_CITY || s.kind === KIND_ROAD) {
      const prefix = s.kind === KIND_CITY ? 'city' : 'road';
      for (const e of s.sides.map((x) => (x + k) % 4).sort((a, b) => a - b)) all.push(`${prefix}:${EDGES[e]}`);
    } else {
      const halves = s.sides.map((h) => (h + 2 * k) % 8).sort((a, b) => a - b);
      for (let c = 0; c < 4; c++) if (fieldsInCorner[c].size === 1 && fieldsInCorner[c].has(i)) all.push(`field:${CORNERS[c]}`);
      for (const h of halves) all.push(`field:${HALF_NAMES[h]}`);
      if (halves.length === 0) all.push('field:centre');
    }
    names.push(all[0]);
    for (const n of all) lookup.set(n, i);
  });
  return { names, lookup };
}

/** An expansion tile at one rotation, in the shape of tiles.ts's flat tables: packed edge codes
 * (3 bits a side, N | E<<3 | S<<6 | W<<9, so `B` = 4 fits), the segment on each board edge
 * (city or road; -1 otherwise), the field on each board half-edge (-1 on a city edge). */
export interface ExpansionRotation {
  edges: number;
  edgeSeg: Int8Array;
  halfField: Int8Array;
}

export function expansionRotation(def: ExpansionTileDef, k: number): ExpansionRotation {
  let edges = 0;
  for (let e = 0; e < 4; e++) edges |= def.edges[e] << (((e + k) % 4) * 3);
  const edgeSeg = new Int8Array(4).fill(-1);
  const halfField = new Int8Array(8).fill(-1);
  def.segments.forEach((s, i) => {
    if (s.kind === KIND_CITY || s.kind === KIND_ROAD) for (const e of s.sides) edgeSeg[(e + k) % 4] = i;
    if (s.kind === KIND_FIELD) for (const h of s.sides) halfField[(h + 2 * k) % 8] = i;
  });
  return { edges, edgeSeg, halfField };
}
