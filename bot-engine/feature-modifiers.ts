// Scoring of roads, cities and monasteries/gardens as data: a feature's points come from its kind
// and its modifiers (inn, cathedral) through one table, and its figures' strengths (the large
// follower counts two) through one packed word, so the expansions add rows, not branches in
// rules.ts. Pure and allocation-free; rules.ts scores with it (docs/ENGINE.md, "Expansions").

import { KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD } from './tiles.ts';
import { KIND_GARDEN } from './expansion-tiles.ts';
import { CATHEDRAL_CITY, INN_ROAD, MOD_CATHEDRAL, MOD_INN } from './expansions/inns-cathedrals.ts';
import { FIGURE_ABBOT, FIGURE_FOLLOWER, FIGURE_KINDS, FIGURE_LARGE, FIGURE_STRENGTH } from './expansions/options.ts';

export { FIGURE_ABBOT, FIGURE_FOLLOWER, FIGURE_KINDS, FIGURE_LARGE, FIGURE_STRENGTH, MOD_CATHEDRAL, MOD_INN };

/** [kind row][complete ? 0 : 1] → [points a tile, points a pennant]. Rows: road, road with an
 * inn, city, city with a cathedral (RULES.md "Scoring"; the modified rows are Inns & Cathedrals'). */
const ROAD = 0;
const ROAD_INN = 1;
const CITY = 2;
const CITY_CATHEDRAL = 3;
const PER_TILE = new Uint8Array([1, 1, INN_ROAD.complete[0], INN_ROAD.open[0], 2, 1, CATHEDRAL_CITY.complete[0], CATHEDRAL_CITY.open[0]]);
const PER_PENNANT = new Uint8Array([0, 0, INN_ROAD.complete[1], INN_ROAD.open[1], 2, 1, CATHEDRAL_CITY.complete[1], CATHEDRAL_CITY.open[1]]);

function row(kind: number, mods: number): number {
  if (kind === KIND_ROAD) return mods & INN_ROAD.mod ? ROAD_INN : ROAD;
  return mods & CATHEDRAL_CITY.mod ? CITY_CATHEDRAL : CITY;
}

/** What a road or city is worth: completed during play (`complete`) or as it stands at the end.
 * `tinyCity`: a completed two-tile city scores 2 (a cathedral city is never two tiles). */
export function featurePoints(kind: number, mods: number, tiles: number, pennants: number, complete: boolean, tinyCity: boolean): number {
  if (kind === KIND_MONASTERY || kind === KIND_GARDEN) throw new Error('monasteries and gardens score by neighbours: cloisterPoints');
  if (kind !== KIND_ROAD && kind !== KIND_CITY) throw new Error(`kind ${kind} scores only as a farm`);
  if (complete && tinyCity && kind === KIND_CITY && tiles === 2 && !(mods & MOD_CATHEDRAL)) return 2;
  const i = row(kind, mods) * 2 + (complete ? 0 : 1);
  return PER_TILE[i] * tiles + PER_PENNANT[i] * pennants;
}

/** A monastery or garden with `missing` of its 8 neighbours absent: 9 when complete, else 1 + each
 * neighbour; also what taking the abbot back scores (the tile just placed counted). */
export function cloisterPoints(missing: number): number {
  return 9 - Math.max(0, missing);
}

// ---- Figures and majorities ----

/** Bits a player in a feature's strength word: up to 7 followers + 2 for the large one = 9 < 16,
 * and 6 players take 24 bits of a Uint32, so adding two roots' words never carries. */
export const STRENGTH_BITS = 4;
const STRENGTH_MASK = (1 << STRENGTH_BITS) - 1;

/** The word a figure of `player` adds to its feature's root. */
export function strengthWord(player: number, figure: number): number {
  return FIGURE_STRENGTH[figure] << (player * STRENGTH_BITS);
}

export function strengthOf(word: number, player: number): number {
  return (word >>> (player * STRENGTH_BITS)) & STRENGTH_MASK;
}

/** Players with the greatest strength on a feature, as a bitmask (0 when nobody stands there). */
export function majorityOf(word: number): number {
  let best = 0;
  let mask = 0;
  for (let p = 0, m = word >>> 0; m !== 0; p++, m >>>= STRENGTH_BITS) {
    const c = m & STRENGTH_MASK;
    if (c > best) {
      best = c;
      mask = 1 << p;
    } else if (c === best && c > 0) mask |= 1 << p;
  }
  return mask;
}

/** Whether a figure may stand on a segment of this kind (the feature holding no figure yet, as
 * ever): followers, large or not, on cities, roads, fields and monasteries, never on a garden;
 * the abbot only on a monastery or a garden (RULES.md, "The abbot"). */
export function figureMayStand(figure: number, kind: number): boolean {
  if (figure === FIGURE_ABBOT) return kind === KIND_MONASTERY || kind === KIND_GARDEN;
  return kind === KIND_CITY || kind === KIND_ROAD || kind === KIND_FIELD || kind === KIND_MONASTERY;
}

/** What taking the abbot back scores, its monastery or garden missing `missing` neighbours once
 * the turn's tile is placed; -1 when it may not be taken back (complete: it scores 9 in the
 * scoring step instead). */
export function abbotReturnPoints(missing: number): number {
  return missing > 0 ? cloisterPoints(missing) : -1;
}
