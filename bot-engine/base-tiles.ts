// RULES.md's tile notation and the 24 base rows, shared by tiles.ts (the flat tables) and
// expansion-tiles.ts (the expansion rows), so neither imports the other's tables.

export const KIND_CITY = 0;
export const KIND_ROAD = 1;
export const KIND_FIELD = 2;
export const KIND_MONASTERY = 3;

/** Edge letters as 2-bit codes; 0 means "no tile there" in a cell's constraint. */
export const EDGE_CITY = 1;
export const EDGE_ROAD = 2;
export const EDGE_FIELD = 3;

export const EDGES = ['N', 'E', 'S', 'W'] as const;
export const CORNERS = ['NE', 'SE', 'SW', 'NW'] as const;

export interface TileSource {
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
export const BASE_SOURCE: readonly TileSource[] = [
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

export function edgeIndex(name: string): number {
  const i = (EDGES as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`bad edge ${name}`);
  return i;
}

export function cornerIndex(name: string): number {
  const i = (CORNERS as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`bad corner ${name}`);
  return i;
}

export function groups(text: string): string[] {
  return text === '-' ? [] : text.split(';').map((s) => s.trim());
}

// Half-edges, clockwise from the north edge's west half: 0 N-w, 1 N-e, 2 E-n, 3 E-s, 4 S-e, 5 S-w, 6 W-s, 7 W-n.
// Each half lies in one corner: NW, NE, NE, SE, SE, SW, SW, NW.
export const HALF_CORNER = [3, 0, 0, 1, 1, 2, 2, 3];
export const HALF_NAMES = ['N-w', 'N-e', 'E-n', 'E-s', 'S-e', 'S-w', 'W-s', 'W-n'] as const;
