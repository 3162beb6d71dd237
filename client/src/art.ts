// Tile art: vector drawings of the 24 tile types, built from the engine's own tile table
// (bot-engine/tiles.ts) so the pictures can never disagree with the rules. Every tile is drawn at
// rotation 0 in a 100×100 box (y grows south) and defined once as an SVG <g id="tile-X"> in
// <defs>; the board places it with <use> and rotate(r 50 50).
//
// Shapes are canonical per kind of piece and rotated into place: a city on one edge is a cap,
// on two neighbouring edges a corner, on two opposite edges a band, on three edges everything
// but a bay; roads are straight, a quarter arc round a corner, or run from an edge to the centre.

import { EDGE_CITY } from '../../bot-engine/base-tiles.ts';
import { EXPANSION_TILES, type ExpansionTileDef } from '../../bot-engine/expansion-tiles.ts';
import { HALF_CORNER, KIND_CITY, KIND_FIELD, KIND_GARDEN, KIND_MONASTERY, KIND_ROAD, ROT_SPOT_LOOKUP, TILES, TILE_NAMES, TYPE_NAMES, type Segment } from '../../bot-engine/tiles.ts';

export const SVG_NS = 'http://www.w3.org/2000/svg';
export const TILE = 100;

export const COLORS = {
  field: '#86b35a',
  fieldDark: '#6f9c47',
  city: '#dcb884',
  cityShade: '#c79f68',
  roof: '#b4563b',
  wall: '#6d5a48',
  wallLight: '#b8a07c',
  road: '#f2e8cc',
  roadEdge: '#8c7c5c',
  monastery: '#f1e6cc',
  pennant: '#2857a8',
};

export type Pt = [number, number];

/** Rotates a point of the 100-box by `quarters` clockwise turns about the centre (y south). */
export function rotatePoint([x, y]: Pt, quarters: number): Pt {
  let p: Pt = [x, y];
  for (let i = 0; i < ((quarters % 4) + 4) % 4; i++) p = [TILE - p[1], p[0]];
  return p;
}

export const rot = (quarters: number) => (quarters % 4 === 0 ? '' : ` transform="rotate(${(quarters % 4) * 90} 50 50)"`);

// ---- Canonical shapes (rotation 0) ----
// City regions and their inner wall lines.
const CAP_N = { fill: 'M0 0H100C78 40 22 40 0 0Z', wall: 'M100 0C78 40 22 40 0 0' };
const CORNER_NW = { fill: 'M0 0H100C72 40 40 72 0 100Z', wall: 'M100 0C72 40 40 72 0 100' };
const BAND_EW = { fill: 'M0 0C22 36 78 36 100 0V100C78 64 22 64 0 100Z', wall: 'M0 0C22 36 78 36 100 0M0 100C22 64 78 64 100 100' };
const THREE_NO_S = { fill: 'M0 0H100V100C78 58 22 58 0 100Z', wall: 'M100 100C78 58 22 58 0 100' };
const FULL = { fill: 'M0 0H100V100H0Z', wall: '' };

/** The canonical city shape for a set of edges and the quarter turns that put it in place. */
export function cityShape(sides: number[]): { shape: { fill: string; wall: string }; turn: number; kind: 'cap' | 'corner' | 'band' | 'three' | 'full' } {
  const s = [...sides].sort((a, b) => a - b);
  if (s.length === 1) return { shape: CAP_N, turn: s[0], kind: 'cap' };
  if (s.length === 4) return { shape: FULL, turn: 0, kind: 'full' };
  if (s.length === 3) {
    const missing = [0, 1, 2, 3].find((e) => !s.includes(e))!;
    return { shape: THREE_NO_S, turn: missing - 2, kind: 'three' };
  }
  if ((s[1] - s[0]) % 2 === 0) return { shape: BAND_EW, turn: s[0] === 1 ? 0 : 1, kind: 'band' };
  // Neighbouring edges {a, a+1}: the N+W corner is {3, 0}; turning it once gives {0, 1}.
  const a = s[0] === 0 && s[1] === 3 ? 3 : s[0];
  return { shape: CORNER_NW, turn: a + 1, kind: 'corner' };
}

/** Where a city's follower and pennant go, at rotation 0 of the canonical shape. */
export const CITY_SPOT: Record<string, Pt> = { cap: [50, 15], corner: [30, 30], band: [50, 50], three: [50, 36], full: [50, 50] };
export const PENNANT_AT: Record<string, Pt> = { cap: [50, 8], corner: [13, 13], band: [17, 50], three: [17, 17], full: [22, 22] };

// Roads: straight W–E, the E–S quarter arc, or from the S edge to the centre.
const ROAD_STRAIGHT_WE = 'M0 50H100';
const ROAD_ARC_ES = 'M100 50A50 50 0 0 0 50 100';
const ROAD_END_S = 'M50 100V50';

export function roadShape(sides: number[]): { d: string; turn: number; spot: Pt } {
  const s = [...sides].sort((a, b) => a - b);
  if (s.length === 1) return { d: ROAD_END_S, turn: s[0] - 2, spot: [50, 80] };
  if ((s[1] - s[0]) % 2 === 0) return { d: ROAD_STRAIGHT_WE, turn: s[0] === 1 ? 0 : 1, spot: [50, 50] };
  const a = s[0] === 0 && s[1] === 3 ? 3 : s[0];
  return { d: ROAD_ARC_ES, turn: a - 1, spot: [64.6, 64.6] };
}

// Field spots are placed by hand, per tile, keyed by the field's first corner (rotation 0):
// a field's shape depends on everything around it, and a picked point reads best.
const FIELD_SPOTS: Record<string, Record<string, Pt>> = {
  A: { NE: [80, 24] },
  B: { NE: [80, 24] },
  D: { NE: [80, 36], SE: [50, 80] },
  E: { NE: [50, 74] },
  F: { NE: [50, 9], SE: [50, 91] },
  G: { NE: [50, 9], SE: [50, 91] },
  H: { NE: [50, 50] },
  I: { NE: [66, 66] },
  J: { NE: [30, 62], SE: [88, 88] },
  K: { NE: [72, 60], SW: [12, 88] },
  L: { NE: [82, 34], SE: [80, 80], SW: [20, 80] },
  M: { NE: [74, 74] },
  N: { NE: [74, 74] },
  O: { NE: [86, 30], SE: [88, 88] },
  P: { NE: [86, 30], SE: [88, 88] },
  Q: { SE: [50, 88] },
  R: { SE: [50, 88] },
  S: { SE: [80, 88], SW: [20, 88] },
  T: { SE: [80, 88], SW: [20, 88] },
  U: { NE: [50, 22], SE: [50, 78] },
  V: { NE: [68, 34], SW: [12, 88] },
  W: { NE: [50, 22], SE: [80, 80], SW: [20, 80] },
  X: { NE: [80, 20], SE: [80, 80], SW: [20, 80], NW: [20, 20] },
};
const CORNER_NAMES = ['NE', 'SE', 'SW', 'NW'];

/** A city's or a road's spot at rotation 0 (null for other kinds): the canonical shape's spot,
 * turned into place. H and I hold two caps; a lone cap's spot sits in its middle. */
function cityOrRoadSpot(kind: number, sides: number[]): Pt | null {
  if (kind === KIND_CITY) {
    const c = cityShape(sides);
    return rotatePoint(CITY_SPOT[c.kind], c.turn);
  }
  if (kind !== KIND_ROAD) return null;
  const r = roadShape(sides);
  return rotatePoint(r.spot, r.turn);
}

/** Rotation-0 position of each local segment's follower spot, per base tile type. */
const BASE_SEGMENT_SPOTS: Pt[][] = TILES.map((def) =>
  def.segments.map((seg: Segment): Pt => {
    if (seg.kind === KIND_MONASTERY) return [50, 56];
    const placed = cityOrRoadSpot(seg.kind, seg.sides);
    if (placed) return placed;
    const table = FIELD_SPOTS[def.name] ?? {};
    for (const c of seg.sides) {
      const p = table[CORNER_NAMES[c]];
      if (p) return p;
    }
    // A fallback that is never used by the base game's table, kept for safety.
    const corner: Pt[] = [
      [80, 20],
      [80, 80],
      [20, 80],
      [20, 20],
    ];
    return corner[seg.sides[0]];
  }),
);

export function roadKind(sides: number[]): 'straight' | 'arc' | 'end' {
  if (sides.length === 1) return 'end';
  return (sides[1] - sides[0]) % 2 === 0 ? 'straight' : 'arc';
}

/** Points along a city wall (`M x y C …` curves, as the shapes above are written). */
function wallPoints(wall: string): Pt[] {
  const out: Pt[] = [];
  for (const part of wall.split('M').filter(Boolean)) {
    const [x0, y0, x1, y1, x2, y2, x3, y3] = part.replace('C', ' ').trim().split(/\s+/).map(Number);
    for (let i = 0; i <= 10; i++) {
      const t = i / 10;
      const [a, b, c, d] = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3];
      out.push([a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3]);
    }
  }
  return out;
}

/** Points an expansion tile's cities, roads, river and monastery cover: a garden keeps clear of
 * them, and a field's spot too. */
export function coveredPoints(def: ExpansionTileDef): Pt[] {
  const out: Pt[] = [];
  // A city: its middle and its whole edges (a city reaches into the corners beside them).
  const along = (e: number): Pt[] => Array.from({ length: 11 }, (_, i) => rotatePoint([i * 10, 0], e));
  for (const seg of def.segments.filter((x) => x.kind === KIND_CITY)) {
    const c = cityShape(seg.sides);
    out.push(rotatePoint(CITY_SPOT[c.kind], c.turn), ...seg.sides.flatMap(along), ...wallPoints(c.shape.wall).map((p) => rotatePoint(p, c.turn)));
  }
  for (const sides of [...def.segments.filter((x) => x.kind === KIND_ROAD).map((x) => x.sides), ...def.river]) {
    const r = roadShape(sides);
    const kind = roadKind([...sides].sort((a, b) => a - b));
    for (let i = 0; i <= 10; i++) {
      const t = i / 10;
      const p: Pt = kind === 'straight' ? [t * 100, 50] : kind === 'end' ? [50, 50 + t * 50] : [100 - 50 * Math.sin((t * Math.PI) / 2), 100 - 50 * Math.cos((t * Math.PI) / 2)];
      out.push(rotatePoint(p, r.turn));
    }
  }
  if (def.segments.some((x) => x.kind === KIND_MONASTERY)) out.push([50, 50], [50, 35]);
  return out;
}

/** The clearest point of a 5×5 grid over the tile (among those `allowed`): the farthest from
 * anything drawn on it. */
export function gardenSpot(covered: Pt[], allowed: (p: Pt) => boolean = () => true): Pt {
  return clearestPoint(GRID_5, covered, allowed) ?? [50, 50];
}

const grid = (from: number, step: number, n: number): Pt[] => Array.from({ length: n * n }, (_, i) => [from + (i % n) * step, from + ((i / n) | 0) * step]);
const GRID_5 = grid(18, 16, 5);
/** Finer, for a garden that must fit whole in a small field (Rg's, under its city). */
const GRID_FINE = grid(14, 4, 19);

function clearestPoint(candidates: Pt[], covered: Pt[], allowed: (p: Pt) => boolean): Pt | null {
  let best: Pt | null = null;
  let bestD = -1;
  for (const p of candidates) {
    if (!allowed(p)) continue;
    const d = Math.min(...covered.map((c) => Math.hypot(c[0] - p[0], c[1] - p[1])));
    if (d > bestD + 0.01) {
      best = p;
      bestD = d;
    }
  }
  return best;
}

/** A monastery on a river tile stands on the bank, smaller, not in the water. */
export const MONASTERY_ON_RIVER = 'translate(0 -27) translate(50 50) scale(.7) translate(-50 -50)';

const HALF_EDGE_MIDS: Pt[] = [
  [25, 0],
  [75, 0],
  [100, 25],
  [100, 75],
  [75, 100],
  [25, 100],
  [0, 75],
  [0, 25],
];

/** Where a tile's garden is drawn (and its abbot stands): its whole hedge in a field, clear of the
 * tile's features, and of the farmers' spots a garden twin keeps from its base tile when the
 * field has room for both (else that farmer moves: expansionSegmentSpots). */
export function gardenAt(def: ExpansionTileDef): Pt {
  const keep = def.name.endsWith('g') ? Object.values(FIELD_SPOTS[def.name.slice(0, -1)] ?? {}) : [];
  const covered = coveredPoints(def);
  // Only where the nearest tile edge is not a city's (cities on all four: the middle).
  const inField = (p: Pt) => def.edges[nearestHalf(p) >> 1] !== EDGE_CITY;
  const fits = (p: Pt) => inField(p) && hedgeClear(p, covered);
  return (
    clearestPoint(GRID_5, [...covered, ...keep], (p) => fits(p) && hedgeClear(p, keep)) ??
    clearestPoint(GRID_FINE, [...covered, ...keep], (p) => fits(p) && hedgeClear(p, keep)) ??
    clearestPoint(GRID_FINE, covered, fits) ??
    gardenSpot(covered, inField)
  );
}

/** Half the side of a drawn garden, hedge included (expansion-art.ts, gardenMarkup), and a margin. */
export const GARDEN_HALF = 13.3;
const HEDGE_MARGIN = 2;
/** Half a lying farmer's length. */
const FARMER_HALF = 9;
/** True when a garden drawn at p covers none of `points` (points sample lines, hence the margin). */
export const hedgeClear = (p: Pt, points: Pt[], margin = HEDGE_MARGIN): boolean => points.every((c) => Math.max(Math.abs(c[0] - p[0]), Math.abs(c[1] - p[1])) > GARDEN_HALF + margin);

/** A city's area at rotation 0 as a polygon (its fill path's curves sampled). */
function cityPolygon(sides: number[]): Pt[] {
  const { shape, turn } = cityShape(sides);
  const out: Pt[] = [];
  let at: Pt = [0, 0];
  for (const [, op, args] of shape.fill.matchAll(/([MHVCZ])([^MHVCZ]*)/g)) {
    const n = args.trim().split(/\s+/).filter(Boolean).map(Number);
    if (op === 'M') at = [n[0], n[1]];
    else if (op === 'H') at = [n[0], at[1]];
    else if (op === 'V') at = [at[0], n[0]];
    else if (op === 'C')
      for (let i = 1; i <= 10; i++) {
        const t = i / 10;
        const [a, b, c, d] = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3];
        out.push([a * at[0] + b * n[0] + c * n[2] + d * n[4], a * at[1] + b * n[1] + c * n[3] + d * n[5]]);
      }
    if (op === 'C') at = [n[4], n[5]];
    else if (op !== 'Z') out.push(at);
  }
  return out.map((q) => rotatePoint(q, turn));
}

function insidePolygon([x, y]: Pt, poly: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** True when p lies in the field of half-edges `sides`, clear of its borders with other fields
 * (a field's area is its half-edges' triangles from the centre: expansionSegmentMarkup) and of
 * the tile's cities. */
function inFieldOf(def: ExpansionTileDef, sides: number[], p: Pt): boolean {
  const d = HALF_EDGE_MIDS.map((m) => Math.hypot(m[0] - p[0], m[1] - p[1]));
  const mine = Math.min(...sides.map((h) => d[h]));
  const others = def.segments.filter((x) => x.kind === KIND_FIELD && x.sides !== sides).flatMap((x) => x.sides);
  if (others.some((h) => d[h] < mine + 4)) return false;
  return !def.segments.some((x) => x.kind === KIND_CITY && insidePolygon(p, cityPolygon(x.sides)));
}

const nearestHalf = (p: Pt) => HALF_EDGE_MIDS.map((m) => Math.hypot(m[0] - p[0], m[1] - p[1])).reduce((b, d, i, all) => (d < all[b] ? i : b), 0);

/** Rotation-0 spots of an expansion tile's segments, in its table's segment order. */
function expansionSegmentSpots(def: ExpansionTileDef): Pt[] {
  const covered = coveredPoints(def);
  const garden = def.segments.some((x) => x.kind === KIND_GARDEN) ? gardenAt(def) : null;
  // Only a garden twin's name (`Eg`) less its last letter is a base type.
  const baseFields = def.name.endsWith('g') ? FIELD_SPOTS[def.name.slice(0, -1)] : undefined;
  return def.segments.map((seg): Pt => {
    if (seg.kind === KIND_MONASTERY) return def.river.length ? [50, 27] : [50, 56];
    if (seg.kind === KIND_GARDEN) return garden!;
    const placed = cityOrRoadSpot(seg.kind, seg.sides);
    if (placed) return placed;
    // A garden twin's fields stand where its base tile's do, unless its garden stands there.
    const corner = seg.sides.map((h) => CORNER_NAMES[HALF_CORNER[h]]).find((c) => baseFields?.[c]);
    if (baseFields && corner) {
      if (!garden || hedgeClear(garden, [baseFields[corner]])) return baseFields[corner];
      // Else beside the hedge at the same height, on the base spot's side of the garden.
      const [bx, by] = baseFields[corner];
      return [garden[0] + (bx >= garden[0] ? 1 : -1) * (GARDEN_HALF + FARMER_HALF), by];
    }
    // The field in the middle of four cities: beside a garden there, else the middle.
    if (!seg.sides.length) return garden && garden[0] === 50 && garden[1] === 50 ? [64, 64] : [50, 50];
    // Else the clearest point well inside this field: nearer to its half-edges than to any other
    // field's (not on the line between two), and not under a city.
    return gardenSpot(garden ? [...covered, garden] : covered, (p) => inFieldOf(def, seg.sides, p));
  });
}

export type SpotKind = 'city' | 'road' | 'field' | 'monastery' | 'garden';

/** Rotation-0 position of each local segment's spot, per type of the engine's tables (base
 * types, then the expansions'). */
export const SEGMENT_SPOTS: Pt[][] = [...BASE_SEGMENT_SPOTS, ...EXPANSION_TILES.map(expansionSegmentSpots)];
const SEGMENT_KINDS: number[][] = [...TILES, ...EXPANSION_TILES].map((def) => def.segments.map((seg) => seg.kind));

/** Board-oriented position (in the tile's 100 box) of a follower spot name on a placed tile. */
export function spotPosition(tile: string, rotation: number, spot: string): { at: Pt; kind: SpotKind } | null {
  const t = TYPE_NAMES.indexOf(tile);
  if (t < 0) return null;
  const k = ((rotation / 90) | 0) & 3;
  const local = ROT_SPOT_LOOKUP[t * 4 + k].get(spot);
  if (local === undefined) return null;
  const kind = (['city', 'road', 'field', 'monastery', 'garden'] as const)[SEGMENT_KINDS[t][local]];
  return { at: rotatePoint(SEGMENT_SPOTS[t][local], k), kind };
}

const DIRS8 = ['east', 'south-east', 'south', 'south-west', 'west', 'north-west', 'north', 'north-east'];

/** Where a spot lies on the tile as the player sees it: "north-west", "centre"… */
export function spotDirection(tile: string, rotation: number, spot: string): string {
  const p = spotPosition(tile, rotation, spot);
  if (!p) return '';
  const dx = p.at[0] - 50;
  const dy = p.at[1] - 50;
  if (Math.hypot(dx, dy) < 12) return 'centre';
  const a = Math.atan2(dy, dx);
  return DIRS8[((Math.round(a / (Math.PI / 4)) % 8) + 8) % 8];
}

/** Small inline icons (no emoji fonts needed). */
export const ICONS = {
  clock:
    '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M8 5.5V9l2.3 1.6M6 1.5h4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>',
  bot: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><rect x="2.5" y="5" width="11" height="8.5" rx="2" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="6" cy="9" r="1.2" fill="currentColor"/><circle cx="10" cy="9" r="1.2" fill="currentColor"/><path d="M8 5V2.5M1 8.5v2.5M15 8.5v2.5" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/></svg>',
  eye: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M1 8s2.6-4.5 7-4.5S15 8 15 8s-2.6 4.5-7 4.5S1 8 1 8Z" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="8" cy="8" r="2.2" fill="currentColor"/></svg>',
  start: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2.5v11M13 2.5 5 8l8 5.5Z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>',
  back: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M12 2.5 4 8l8 5.5Z" fill="currentColor"/></svg>',
  play: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2.5 12.5 8 4 13.5Z" fill="currentColor"/></svg>',
  pause: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2.5h3v11H4ZM9 2.5h3v11H9Z" fill="currentColor"/></svg>',
  fwd: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2.5 12 8l-8 5.5Z" fill="currentColor"/></svg>',
  end: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M13 2.5v11M3 2.5 11 8l-8 5.5Z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>',
  person:
    '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="5.2" r="2.8" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M2.5 14c.6-3 2.8-4.6 5.5-4.6s4.9 1.6 5.5 4.6" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/></svg>',
  help: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M6.2 6.3a1.9 1.9 0 1 1 2.6 1.8c-.5.2-.8.6-.8 1.1v.6" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/><circle cx="8" cy="11.8" r=".9" fill="currentColor"/></svg>',
  link: '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M6.8 9.2a2.6 2.6 0 0 0 3.7 0l2.6-2.6a2.6 2.6 0 0 0-3.7-3.7l-.9.9M9.2 6.8a2.6 2.6 0 0 0-3.7 0L2.9 9.4a2.6 2.6 0 0 0 3.7 3.7l.9-.9" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>',
  sheet:
    '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="5.5" cy="5" r="2.3" fill="currentColor"/><path d="M1.5 13.5c0-2.6 1.8-4.3 4-4.3s4 1.7 4 4.3Z" fill="currentColor"/><path d="M11 4h3.5M11 7.5h3.5M12 11h2.5" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/></svg>',
  trophy:
    '<svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4.5 2h7v3.5a3.5 3.5 0 0 1-7 0Z" fill="#e0b331" stroke="#8a6a12" stroke-width="1"/><path d="M4.5 3.2H2.2v1c0 1.6 1.1 2.6 2.6 2.7M11.5 3.2h2.3v1c0 1.6-1.1 2.6-2.6 2.7" fill="none" stroke="#8a6a12" stroke-width="1"/><path d="M7 9h2v2.5H7ZM5 13.8h6v-1.4a1 1 0 0 0-1-1H6a1 1 0 0 0-1 1Z" fill="#e0b331" stroke="#8a6a12" stroke-width="1"/></svg>',
};

/** The local segment a spot name reaches (so "city:N" and "city:W" of one city are one spot). */
export function spotSegment(tile: string, rotation: number, spot: string): number {
  const t = TYPE_NAMES.indexOf(tile);
  return t < 0 ? -1 : (ROT_SPOT_LOOKUP[t * 4 + (((rotation / 90) | 0) & 3)].get(spot) ?? -1);
}

/** A pennant: a round blue badge with a white lozenge, the same at every rotation. */
export function pennant([x, y]: Pt): string {
  return `<g class="pennant" transform="translate(${x} ${y})"><circle r="7.5" fill="${COLORS.pennant}" stroke="#fff" stroke-width="1.8"/><path d="M0 -4.2L4.2 0L0 4.2L-4.2 0Z" fill="#fff"/></g>`;
}

export const MONASTERY = `<g class="monastery">
<ellipse cx="50" cy="67" rx="22" ry="4" fill="#000" opacity=".15"/>
<rect x="33" y="44" width="34" height="23" fill="${COLORS.monastery}" stroke="${COLORS.wall}" stroke-width="2"/>
<path d="M29 45L50 30L71 45Z" fill="${COLORS.roof}" stroke="${COLORS.wall}" stroke-width="2" stroke-linejoin="round"/>
<path d="M45 67V58A5 5 0 0 1 55 58V67Z" fill="${COLORS.wall}"/>
<rect x="37" y="50" width="4" height="6" fill="${COLORS.wall}"/><rect x="59" y="50" width="4" height="6" fill="${COLORS.wall}"/>
<path d="M50 18V30M45.5 22.5H54.5" stroke="${COLORS.wall}" stroke-width="2.6" stroke-linecap="round"/>
</g>`;

export const JUNCTION = `<g class="junction"><rect x="42" y="43" width="16" height="14" fill="${COLORS.monastery}" stroke="${COLORS.wall}" stroke-width="1.8"/><path d="M39.5 44.5L50 36L60.5 44.5Z" fill="${COLORS.roof}" stroke="${COLORS.wall}" stroke-width="1.8" stroke-linejoin="round"/><rect x="47.5" y="50" width="5" height="7" fill="${COLORS.wall}"/></g>`;

/** The inner SVG of one tile type at rotation 0. */
export function tileMarkup(type: number): string {
  const def = TILES[type];
  const parts: string[] = [];
  parts.push(`<rect width="100" height="100" fill="url(#t-field)"/>`);
  const roads = def.segments.filter((s) => s.kind === KIND_ROAD);
  for (const r of roads) {
    const s = roadShape(r.sides);
    parts.push(`<path d="${s.d}"${rot(s.turn)} fill="none" stroke="${COLORS.roadEdge}" stroke-width="15" stroke-linejoin="round"/>`);
  }
  for (const r of roads) {
    const s = roadShape(r.sides);
    parts.push(`<path d="${s.d}"${rot(s.turn)} fill="none" stroke="${COLORS.road}" stroke-width="10" stroke-linejoin="round"/>`);
  }
  const ends = roads.filter((r) => r.sides.length === 1).length;
  if (ends >= 3) parts.push(JUNCTION);
  for (const c of def.segments.filter((s) => s.kind === KIND_CITY)) {
    const { shape, turn, kind } = cityShape(c.sides);
    parts.push(`<g${rot(turn)}>`);
    parts.push(`<path d="${shape.fill}" fill="url(#t-city)"/>`);
    if (shape.wall) {
      parts.push(`<path d="${shape.wall}" fill="none" stroke="${COLORS.wall}" stroke-width="6"/>`);
      parts.push(`<path d="${shape.wall}" fill="none" stroke="${COLORS.wallLight}" stroke-width="2.2" stroke-dasharray="4 3" stroke-linecap="butt"/>`);
    }
    parts.push('</g>');
    if (c.pennant) parts.push(pennant(rotatePoint(PENNANT_AT[kind], turn)));
  }
  if (def.segments.some((s) => s.kind === KIND_MONASTERY)) parts.push(MONASTERY);
  // A thin frame so the grid reads at every zoom.
  parts.push(`<rect x=".5" y=".5" width="99" height="99" fill="none" stroke="#000" stroke-opacity=".18" stroke-width="1"/>`);
  return parts.join('');
}

/** Patterns every tile uses; put once in a document's <defs>. */
export const PATTERNS = `
<pattern id="board-grid" patternUnits="userSpaceOnUse" width="100" height="100">
  <rect width="100" height="100" fill="#3f5a43"/>
  <path d="M0 0.5H100M0.5 0V100" stroke="#4b684f" stroke-width="1.5"/>
  <circle cx="50" cy="50" r="1.6" fill="#4b684f"/>
</pattern>
<pattern id="t-field" patternUnits="userSpaceOnUse" width="25" height="25">
  <rect width="25" height="25" fill="${COLORS.field}"/>
  <path d="M4 8l1.5-3 1.5 3M16 20l1.5-3 1.5 3M18 6l1-2.2 1 2.2M7 19l1-2.2 1 2.2" stroke="${COLORS.fieldDark}" stroke-width="1.1" fill="none" stroke-linecap="round"/>
</pattern>
<pattern id="t-city" patternUnits="userSpaceOnUse" width="20" height="20">
  <rect width="20" height="20" fill="${COLORS.city}"/>
  <path d="M2 9h6v-3l-3-2.5-3 2.5z M12 19h6v-3l-3-2.5-3 2.5z" fill="${COLORS.roof}" opacity=".32"/>
  <path d="M11 7h5M1 16h4" stroke="${COLORS.cityShade}" stroke-width="1.2"/>
</pattern>`;

/** <defs> content: patterns and one <g id="tile-X"> per tile type. */
export function tileDefs(): string {
  return PATTERNS + TILE_NAMES.map((name, t) => `<g id="tile-${name}">${tileMarkup(t)}</g>`).join('');
}

const QUARTER_DISC_SE = 'M100 100V50A50 50 0 0 0 50 100Z';
const QUADRANT = ['M50 0H100V50H50Z', 'M50 50H100V100H50Z', 'M0 50H50V100H0Z', 'M0 0H50V50H0Z'];

/** The area of one tile segment at rotation 0, painted in currentColor: a city's shape, a road's
 * band, the cloister, or a field (its corners' quarters less the tile's cities and roads, as a
 * mask). Highlights of whole features are built from these (`<use href="#seg-X-i">`). */
export function segmentMarkup(type: number, seg: number): string {
  const def = TILES[type];
  const s = def.segments[seg];
  if (s.kind === KIND_CITY) {
    const c = cityShape(s.sides);
    return `<path d="${c.shape.fill}"${rot(c.turn)} fill="currentColor"/>`;
  }
  if (s.kind === KIND_ROAD) {
    const r = roadShape(s.sides);
    return `<path d="${r.d}"${rot(r.turn)} fill="none" stroke="currentColor" stroke-width="16"/>`;
  }
  if (s.kind === KIND_MONASTERY) return '<rect x="24" y="20" width="52" height="56" rx="8" fill="currentColor"/>';
  const id = `fm-${def.name}-${seg}`;
  const cut = def.segments
    .map((o) => {
      if (o.kind === KIND_CITY) {
        const c = cityShape(o.sides);
        return `<path d="${c.shape.fill}"${rot(c.turn)} fill="#000"/>`;
      }
      if (o.kind === KIND_ROAD) {
        const r = roadShape(o.sides);
        return `<path d="${r.d}"${rot(r.turn)} fill="none" stroke="#000" stroke-width="14"/>`;
      }
      return o.kind === KIND_MONASTERY ? '<rect x="30" y="28" width="40" height="42" fill="#000"/>' : '';
    })
    .join('');
  // A road bending round a corner encloses a quarter disc of field there: that field is the
  // disc, and the field outside the bend gets the rest of that corner's quarter.
  let area = `<path d="${s.sides.map((c) => QUADRANT[c]).join('')}" fill="#fff"/>`;
  const arc = def.segments.find((o) => o.kind === KIND_ROAD && o.sides.length === 2 && (o.sides[1] - o.sides[0]) % 2 !== 0);
  if (arc) {
    const [a, b] = [...arc.sides].sort((x, y) => x - y);
    const corner = a === 0 && b === 3 ? 3 : a;
    const disc = `<path d="${QUARTER_DISC_SE}"${rot(corner - 1)} fill="#fff"/>`;
    const quarter = (fill: string) => `<path d="${QUADRANT[1]}"${rot(corner - 1)} fill="${fill}"/>`;
    if (s.sides.includes(corner)) area = disc;
    else if (s.sides.includes((corner + 1) % 4)) area += `${quarter('#fff')}${disc.replace('#fff', '#000')}`;
  }
  return `<mask id="${id}" maskUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">${area}${cut}</mask><rect width="100" height="100" fill="currentColor" mask="url(#${id})"/>`;
}

/** <defs> content: one <g id="seg-X-i"> per segment of every tile type. */
export function segmentDefs(): string {
  return TILE_NAMES.map((name, t) => TILES[t].segments.map((_, i) => `<g id="seg-${name}-${i}">${segmentMarkup(t, i)}</g>`).join('')).join('');
}

// ---- Players and followers ----

/** Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), each also
 * with its own glyph so no one has to tell players apart by colour alone. */
// The fifth is Okabe–Ito's black: the palette's green and sky blue sit too close to the fields
// and to the first seat's blue. The sixth (Inns & Cathedrals' sixth player) is Paul Tol's
// "wine": test/client-colours.test.ts shows it apart from the other five under protanopia,
// deuteranopia and tritanopia, and far from the fields, cities and roads it stands on.
export const PLAYER_COLORS = ['#0072B2', '#D55E00', '#F0E442', '#CC79A7', '#000000', '#882255'];
export const PLAYER_INK = ['#fff', '#fff', '#222', '#222', '#fff', '#fff'];
export const PLAYER_GLYPHS = ['●', '■', '▲', '◆', '★', '✚'];
export const PLAYER_GLYPH_NAMES = ['circle', 'square', 'triangle', 'diamond', 'star', 'cross'];
const GLYPH_PATHS = [
  'M0 -0.6m-2.6 0a2.6 2.6 0 1 0 5.2 0a2.6 2.6 0 1 0 -5.2 0',
  'M-2.3 -2.9h4.6v4.6h-4.6z',
  'M0 -3.4L2.8 1.6H-2.8Z',
  'M0 -3.4L2.8 -0.6L0 2.2L-2.8 -0.6Z',
  'M0 -3.7L.79 -1.49L3.14 -1.42L1.28 .02L1.94 2.27L0 .95L-1.94 2.27L-1.28 .02L-3.14 -1.42L-.79 -1.49Z',
  'M-1.1 -3.6h2.2v1.9h1.9v2.2h-1.9v1.9h-2.2v-1.9h-1.9v-2.2h1.9Z',
];

export const MEEPLE_PATH =
  'M0 -13C3 -13 4.6 -10.6 4.3 -8.3C4.1 -6.8 3.4 -5.8 2.6 -5.1L9.5 -2.6C11.5 -1.9 11.6 1.4 9.4 1.9L5 2.6L8.5 10.5C9 11.6 8.3 12.5 7.2 12.5H2.2L0 7.5L-2.2 12.5H-7.2C-8.3 12.5 -9 11.6 -8.5 10.5L-5 2.6L-9.4 1.9C-11.6 1.4 -11.5 -1.9 -9.5 -2.6L-2.6 -5.1C-3.4 -5.8 -4.1 -6.8 -4.3 -8.3C-4.6 -10.6 -3 -13 0 -13Z';

/** The abbot: a hooded robe, a bell with a round head, told from a follower by its outline. */
export const ABBOT_PATH =
  'M0 -13.5C3.6 -13.5 5.6 -10.8 5.2 -7.6C5 -6.2 4.4 -5.2 3.6 -4.4L9.6 10.2C10.1 11.6 9.2 12.8 7.8 12.8H-7.8C-9.2 12.8 -10.1 11.6 -9.6 10.2L-3.6 -4.4C-4.4 -5.2 -5 -6.2 -5.2 -7.6C-5.6 -10.8 -3.6 -13.5 0 -13.5Z';

export const MEEPLE_DEFS = `<path id="meeple-shape" d="${MEEPLE_PATH}"/><path id="abbot-shape" d="${ABBOT_PATH}"/>`;

/** How much bigger the large follower (Inns & Cathedrals) is drawn than a follower. */
export const LARGE_SCALE = 1.45;

/** The tallest a figure is drawn, in tile units (a tile is 100): zoomed out, the board draws
 * figures bigger to keep them readable, but never past about half a tile, so a large follower
 * still reads as standing on its tile. */
export const FIGURE_MAX_HEIGHT = 55;
/** The shapes' heights at scale 1: the follower's (the large follower's too), the abbot's. */
const SHAPE_HEIGHT = { meeple: 25.5, abbot: 26.3 };

/** A figure's scale for the scale asked for: the large follower LARGE_SCALE times bigger, and no
 * figure taller than FIGURE_MAX_HEIGHT. */
export function figureScale(scale: number, figure: 'follower' | 'large' | 'abbot' = 'follower'): number {
  const height = figure === 'abbot' ? SHAPE_HEIGHT.abbot : SHAPE_HEIGHT.meeple;
  return Math.min(scale * (figure === 'large' ? LARGE_SCALE : 1), FIGURE_MAX_HEIGHT / height);
}

/** A figure of `player` at (x, y) in the caller's units: a follower (farmers lie down), the large
 * follower (drawn bigger) or the abbot (its own shape). */
export function meepleMarkup(player: number, x: number, y: number, opts: { farmer?: boolean; scale?: number; ghost?: boolean; figure?: 'follower' | 'large' | 'abbot' } = {}): string {
  const color = PLAYER_COLORS[player] ?? '#888';
  const ink = PLAYER_INK[player] ?? '#fff';
  const figure = opts.figure ?? 'follower';
  const s = figureScale(opts.scale ?? 1, figure);
  const lie = opts.farmer ? ' rotate(-90)' : '';
  const shape = figure === 'abbot' ? '#abbot-shape' : '#meeple-shape';
  const kind = figure === 'follower' ? '' : ` ${figure}`;
  return `<g class="meeple${kind}${opts.ghost ? ' ghost' : ''}" data-player="${player}" transform="translate(${x} ${y}) scale(${s})${lie}">
<use href="${shape}" transform="translate(1.2 1.6)" fill="#000" opacity=".3"/>
<use href="${shape}" fill="${color}" stroke="#1b1b1b" stroke-width="${figure === 'large' ? 1.6 : 1.3}" stroke-linejoin="round"/>
<path d="${GLYPH_PATHS[player] ?? GLYPH_PATHS[0]}" transform="translate(0 2.2)${opts.farmer ? ' rotate(90)' : ''}" fill="${ink}"/></g>`;
}

/** A small standalone SVG of one tile (side panel, lobby). */
export function tileIcon(tile: string | null, rotation = 0, size = 96): string {
  if (!tile)
    return `<svg class="tile-icon" width="${size}" height="${size}" viewBox="0 0 100 100" aria-hidden="true"><rect x="2" y="2" width="96" height="96" rx="6" fill="none" stroke="#999" stroke-dasharray="6 5" stroke-width="3"/></svg>`;
  return `<svg class="tile-icon" width="${size}" height="${size}" viewBox="-2 -2 104 104" aria-hidden="true"><use href="#tile-${tile}" transform="rotate(${rotation} 50 50)"/></svg>`;
}

/** A small standalone figure icon in a player's colour (hollow: not in the supply). */
export function meepleIcon(player: number, size = 18, empty = false, figure: 'follower' | 'large' | 'abbot' = 'follower'): string {
  const color = PLAYER_COLORS[player] ?? '#888';
  const px = figure === 'large' ? Math.round(size * LARGE_SCALE) : size;
  return `<svg class="meeple-icon${figure === 'follower' ? '' : ` ${figure}`}" width="${px}" height="${px}" viewBox="-13 -14 26 28" aria-hidden="true"><path d="${figure === 'abbot' ? ABBOT_PATH : MEEPLE_PATH}" fill="${empty ? 'none' : color}" stroke="${empty ? '#9aa' : '#1b1b1b'}" stroke-width="1.4"/></svg>`;
}

export { KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD };
