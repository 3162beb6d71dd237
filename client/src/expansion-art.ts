// Tile art of the expansions (The River, Inns & Cathedrals, the Abbot's gardens), built from the
// engine's expansion tables (bot-engine/expansion-tiles.ts) with the base art's shapes: a river
// runs where a road would (straight, a quarter arc, or from an edge to a spring or a lake), an
// inn is a small house beside its road, a cathedral stands in its city, a garden is a hedged
// plot put in the clearest spot of the tile's fields. Base tiles' drawings are not touched:
// a garden twin of a base tile (`Eg`) is the base tile with a garden on it.

import { BASE_GARDENS, EXPANSION_TILES, GARDEN_TILES, INNS_TILES, KIND_GARDEN, RIVER_TILES, type ExpansionTileDef } from '../../bot-engine/expansion-tiles.ts';
import { KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD } from '../../bot-engine/tiles.ts';
import { COLORS, JUNCTION, MONASTERY, MONASTERY_ON_RIVER, PENNANT_AT, type Pt, cityShape, gardenAt, pennant, roadKind, roadShape, rot, rotatePoint } from './art.ts';

const WATER = { deep: '#2f7fc1', light: '#8cc8f0', bank: '#21557f' };

/** The two river ends are named in RULES.md's table, not in its columns. */
const RIVER_END: Record<string, 'spring' | 'lake'> = { RA: 'spring', RB: 'lake' };

/** Where an inn stands beside its road, at the road shape's rotation 0 (in the field next to it;
 * on a bend, inside the bend's corner). */
const INN_AT = { straight: [72, 28] as Pt, arc: [79, 79] as Pt, end: [72, 74] as Pt };

function riverMarkup(run: number[], end: 'spring' | 'lake' | undefined): string {
  const s = roadShape(run);
  const band = (stroke: string, width: number) => `<path d="${s.d}"${rot(s.turn)} fill="none" stroke="${stroke}" stroke-width="${width}"/>`;
  const parts = [band(WATER.bank, 22), band(WATER.deep, 18), `<path d="${s.d}"${rot(s.turn)} fill="none" stroke="${WATER.light}" stroke-width="2.5" stroke-dasharray="7 9"/>`];
  if (end === 'lake')
    parts.push(
      `<ellipse cx="50" cy="52" rx="30" ry="24" fill="${WATER.deep}" stroke="${WATER.bank}" stroke-width="3"/><path d="M34 50q6 -4 12 0t12 0M42 60q6 -4 12 0" fill="none" stroke="${WATER.light}" stroke-width="2.5" stroke-linecap="round"/>`,
    );
  if (end === 'spring')
    parts.push(
      `<circle cx="50" cy="50" r="14" fill="${WATER.deep}" stroke="${WATER.bank}" stroke-width="3"/><circle cx="50" cy="50" r="7" fill="none" stroke="${WATER.light}" stroke-width="2.2"/><circle cx="50" cy="50" r="2.2" fill="${WATER.light}"/>`,
    );
  return `<g class="river">${parts.join('')}</g>`;
}

/** An inn: a house with a dark roof, a hanging sign and a pond (a crossing's house has neither),
 * big enough to read on a phone. */
export function innMarkup([x, y]: Pt): string {
  return `<g class="inn" transform="translate(${x} ${y})"><ellipse cx="-12" cy="8" rx="6" ry="3.6" fill="${WATER.deep}" stroke="${WATER.bank}" stroke-width="1.2"/><ellipse cy="9" rx="12" ry="2.6" fill="#000" opacity=".18"/><rect x="-9.5" y="-3" width="19" height="12" fill="#fbf3df" stroke="${COLORS.wall}" stroke-width="1.8"/><path d="M-12 -2.5L0 -12L12 -2.5Z" fill="#7a2a1c" stroke="${COLORS.wall}" stroke-width="1.8" stroke-linejoin="round"/><rect x="-2.5" y="2" width="5" height="7" fill="${COLORS.wall}"/><path d="M9.5 0h4.5" stroke="${COLORS.wall}" stroke-width="1.4"/><rect x="11" y="1" width="5.5" height="5" rx="1" fill="#e0a400" stroke="${COLORS.wall}" stroke-width="1"/></g>`;
}

/** A cathedral: twin towers and a rose window, much larger than a monastery, in city stone. */
export function cathedralMarkup([x, y]: Pt): string {
  return `<g class="cathedral" transform="translate(${x} ${y})"><ellipse cy="17" rx="24" ry="4" fill="#000" opacity=".2"/><rect x="-15" y="-6" width="30" height="23" fill="#ece4d2" stroke="${COLORS.wall}" stroke-width="2"/><path d="M-15 -6L0 -17L15 -6Z" fill="#8a8f99" stroke="${COLORS.wall}" stroke-width="2" stroke-linejoin="round"/><rect x="-22" y="-14" width="9" height="31" fill="#ece4d2" stroke="${COLORS.wall}" stroke-width="2"/><rect x="13" y="-14" width="9" height="31" fill="#ece4d2" stroke="${COLORS.wall}" stroke-width="2"/><path d="M-23.5 -14L-17.5 -25L-11.5 -14ZM11.5 -14L17.5 -25L23.5 -14Z" fill="#8a8f99" stroke="${COLORS.wall}" stroke-width="2" stroke-linejoin="round"/><circle cy="2" r="5" fill="#5d7fb8" stroke="${COLORS.wall}" stroke-width="1.6"/><path d="M-3.5 17V11A3.5 3.5 0 0 1 3.5 11V17Z" fill="${COLORS.wall}"/></g>`;
}

/** A garden: a hedged plot with flowers. */
export function gardenMarkup([x, y]: Pt): string {
  return `<g class="garden" transform="translate(${x} ${y})"><rect x="-12" y="-12" width="24" height="24" rx="6" fill="#3f7f35" stroke="#24501d" stroke-width="2.6"/><rect x="-7" y="-7" width="14" height="14" rx="2" fill="#9c6b3f"/><circle cx="-3.5" cy="-3.5" r="2.6" fill="#f5d94a"/><circle cx="3.5" cy="-3.5" r="2.6" fill="#f2f2f2"/><circle cx="-3.5" cy="3.5" r="2.6" fill="#e87aa8"/><circle cx="3.5" cy="3.5" r="2.6" fill="#f5d94a"/></g>`;
}

/** The inner SVG of one expansion tile at rotation 0. */
export function expansionTileMarkup(def: ExpansionTileDef): string {
  const parts: string[] = [`<rect width="100" height="100" fill="url(#t-field)"/>`];
  for (const run of def.river) parts.push(riverMarkup(run, RIVER_END[def.name]));
  const roads = def.segments.filter((s) => s.kind === KIND_ROAD);
  for (const [stroke, width] of [
    [COLORS.roadEdge, 15],
    [COLORS.road, 10],
  ] as const)
    for (const r of roads) {
      const s = roadShape(r.sides);
      parts.push(`<path d="${s.d}"${rot(s.turn)} fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linejoin="round"/>`);
    }
  const monastery = def.segments.some((s) => s.kind === KIND_MONASTERY);
  // Two or more roads ending on a tile end at a crossing house, unless a monastery stands there.
  if (roads.filter((r) => r.sides.length === 1).length >= 2 && !monastery) parts.push(JUNCTION);
  const cities = def.segments.filter((s) => s.kind === KIND_CITY);
  for (const c of cities) {
    const { shape, turn, kind } = cityShape(c.sides);
    parts.push(`<g${rot(turn)}><path d="${shape.fill}" fill="url(#t-city)"/>`);
    if (shape.wall)
      parts.push(
        `<path d="${shape.wall}" fill="none" stroke="${COLORS.wall}" stroke-width="6"/><path d="${shape.wall}" fill="none" stroke="${COLORS.wallLight}" stroke-width="2.2" stroke-dasharray="4 3"/>`,
      );
    parts.push('</g>');
    if (c.pennant) parts.push(pennant(rotatePoint(PENNANT_AT[kind], turn)));
  }
  // A cathedral stands in the middle of its (four-sided) city.
  if (cities.some((c) => c.cathedral)) parts.push(cathedralMarkup([50, 54]));
  for (const r of roads.filter((s) => s.inn)) {
    const sides = [...r.sides].sort((a, b) => a - b);
    parts.push(innMarkup(rotatePoint(INN_AT[roadKind(sides)], roadShape(sides).turn)));
  }
  // On a river tile the monastery stands on the bank, not in the water.
  if (monastery) parts.push(def.river.length ? `<g transform="${MONASTERY_ON_RIVER}">${MONASTERY}</g>` : MONASTERY);
  if (def.segments.some((s) => s.kind === KIND_GARDEN)) parts.push(gardenMarkup(gardenAt(def)));
  parts.push(`<rect x=".5" y=".5" width="99" height="99" fill="none" stroke="#000" stroke-opacity=".18" stroke-width="1"/>`);
  return parts.join('');
}

/** The base tile `name` with a garden on it (the Abbot's twin, `Eg`). */
export function baseGardenMarkup(name: string): string {
  const twin = GARDEN_TILES.find((d) => d.name === `${name}g`)!;
  return `<use href="#tile-${name}"/>${gardenMarkup(gardenAt(twin))}`;
}

/** Every expansion tile's name, in table order: river, inns & cathedrals, the base gardens. */
export const EXPANSION_TILE_NAMES: readonly string[] = [...RIVER_TILES.map((d) => d.name), ...INNS_TILES.map((d) => d.name), ...BASE_GARDENS.map((n) => `${n}g`)];

/** <defs> content: one <g id="tile-X"> per expansion tile (after the base tiles' defs). */
export function expansionTileDefs(): string {
  return [
    ...[...RIVER_TILES, ...INNS_TILES].map((def) => `<g id="tile-${def.name}">${expansionTileMarkup(def)}</g>`),
    ...BASE_GARDENS.map((n) => `<g id="tile-${n}g">${baseGardenMarkup(n)}</g>`),
  ].join('');
}

// ---- Feature highlight shapes (the expansions' counterpart of art.ts's segmentMarkup) ----

/** The triangle from the centre to half-edge h (N-w, N-e, E-n… clockwise), at rotation 0. */
function octant(h: number): string {
  const ends: Pt[] =
    h % 2
      ? [
          [50, 0],
          [100, 0],
        ]
      : [
          [0, 0],
          [50, 0],
        ];
  const [p, q] = ends.map((e) => rotatePoint(e, h >> 1));
  return `M50 50L${p[0]} ${p[1]}L${q[0]} ${q[1]}Z`;
}

const QUADRANT_SE = 'M50 50H100V100H50Z';
const QUARTER_DISC_SE = 'M100 100V50A50 50 0 0 0 50 100Z';
const RIVER_CUT = 22;

/** Where a river tile's monastery, a garden or an inn is: what a field's highlight leaves out. */
function pieceCuts(def: ExpansionTileDef, fill: string): string {
  const out: string[] = [];
  for (const o of def.segments) {
    if (o.kind === KIND_CITY) {
      const c = cityShape(o.sides);
      out.push(`<path d="${c.shape.fill}"${rot(c.turn)} fill="${fill}"/>`);
    } else if (o.kind === KIND_ROAD) {
      const r = roadShape(o.sides);
      out.push(`<path d="${r.d}"${rot(r.turn)} fill="none" stroke="${fill}" stroke-width="14"/>`);
    } else if (o.kind === KIND_MONASTERY) out.push(monasteryArea(def, fill));
    else if (o.kind === KIND_GARDEN) out.push(gardenArea(def, fill));
  }
  for (const run of def.river) {
    const r = roadShape(run);
    out.push(`<path d="${r.d}"${rot(r.turn)} fill="none" stroke="${fill}" stroke-width="${RIVER_CUT}"/>`);
    if (run.length === 1) out.push(`<circle cx="50" cy="50" r="${RIVER_END[def.name] === 'lake' ? 30 : 16}" fill="${fill}"/>`);
  }
  return out.join('');
}

const monasteryArea = (def: ExpansionTileDef, fill: string) => {
  const rect = `<rect x="24" y="20" width="52" height="56" rx="8" fill="${fill}"/>`;
  return def.river.length ? `<g transform="${MONASTERY_ON_RIVER}">${rect}</g>` : rect;
};

const gardenArea = (def: ExpansionTileDef, fill: string) => {
  const [x, y] = gardenAt(def);
  return `<rect x="${x - 14}" y="${y - 14}" width="28" height="28" rx="7" fill="${fill}"/>`;
};

/** The field whose area takes half-edge h's triangle: its own, or for a city's half-edge the
 * field of the nearest non-city half-edge round the tile (the ground just inside the wall). */
function fieldOfHalf(def: ExpansionTileDef, h: number): number {
  const fieldWith = (x: number) => def.segments.findIndex((s) => s.kind === KIND_FIELD && s.sides.includes(x));
  for (let d = 0; d < 8; d++)
    for (const x of [(h + d) % 8, (h - d + 8) % 8]) {
      const f = fieldWith(x);
      if (f >= 0) return f;
    }
  // Cities on every edge: the field in the middle.
  return def.segments.findIndex((s) => s.kind === KIND_FIELD);
}

/** A field's area at rotation 0: its half-edges' triangles (and the cities' it takes), with a
 * road or river bending round a corner giving the bend's inside to that corner's field and the
 * rest of its quarter to the field outside; less every other piece of the tile, as a mask. */
function fieldArea(def: ExpansionTileDef, seg: number): string {
  const mine = [0, 1, 2, 3, 4, 5, 6, 7].filter((h) => fieldOfHalf(def, h) === seg);
  const parts = mine.map(octant);
  const extra: string[] = [];
  const bends = [...def.segments.filter((o) => o.kind === KIND_ROAD).map((o) => o.sides), ...def.river].filter((s) => s.length === 2 && (s[1] - s[0]) % 2 !== 0);
  for (const bend of bends) {
    const [a, b] = [...bend].sort((x, y) => x - y);
    const corner = a === 0 && b === 3 ? 3 : a;
    // Corner c's half-edges inside the bend: the second half of edge c and the first of c+1.
    const inside = [corner * 2 + 1, ((corner + 1) % 4) * 2];
    const outside = [corner * 2, (((corner + 1) % 4) * 2 + 1) % 8];
    const turn = rot(corner - 1);
    if (inside.some((h) => mine.includes(h))) {
      // Drop the inside triangles: the disc alone is this field.
      for (const h of inside) if (mine.includes(h)) parts.splice(parts.indexOf(octant(h)), 1);
      extra.push(`<path d="${QUARTER_DISC_SE}"${turn} fill="#fff"/>`);
    } else if (outside.some((h) => mine.includes(h))) extra.push(`<path d="${QUADRANT_SE}"${turn} fill="#fff"/><path d="${QUARTER_DISC_SE}"${turn} fill="#000"/>`);
  }
  const id = `fm-${def.name}-${seg}`;
  const area = `${parts.length ? `<path d="${parts.join('')}" fill="#fff"/>` : ''}${extra.join('')}`;
  return `<mask id="${id}" maskUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">${area}${pieceCuts(def, '#000')}</mask><rect width="100" height="100" fill="currentColor" mask="url(#${id})"/>`;
}

/** The area of one expansion tile segment at rotation 0, painted in currentColor: a city (a
 * cathedral's is the whole tile), a road (with its inn), a monastery (on a river tile, on the
 * bank), a garden's plot, or a field. */
export function expansionSegmentMarkup(def: ExpansionTileDef, seg: number): string {
  const s = def.segments[seg];
  if (s.kind === KIND_CITY) {
    const c = cityShape(s.sides);
    return `<path d="${c.shape.fill}"${rot(c.turn)} fill="currentColor"/>`;
  }
  if (s.kind === KIND_ROAD) {
    const r = roadShape(s.sides);
    const sides = [...s.sides].sort((a, b) => a - b);
    const inn = s.inn ? rotatePoint(INN_AT[roadKind(sides)], r.turn) : null;
    return `<path d="${r.d}"${rot(r.turn)} fill="none" stroke="currentColor" stroke-width="16"/>${inn ? `<rect x="${inn[0] - 14}" y="${inn[1] - 14}" width="28" height="26" rx="5" fill="currentColor"/>` : ''}`;
  }
  if (s.kind === KIND_MONASTERY) return monasteryArea(def, 'currentColor');
  if (s.kind === KIND_GARDEN) return gardenArea(def, 'currentColor');
  return fieldArea(def, seg);
}

/** <defs> content: one <g id="seg-X-i"> per segment of every expansion tile type. */
export function expansionSegmentDefs(): string {
  return EXPANSION_TILES.map((def) => def.segments.map((_, i) => `<g id="seg-${def.name}-${i}">${expansionSegmentMarkup(def, i)}</g>`).join('')).join('');
}
