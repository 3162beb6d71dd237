// Inns & Cathedrals (docs/RULES.md, "Inns & Cathedrals"): a sixth seat, the large follower, and
// what an inn or a cathedral does to its road's or city's points. Its tiles are rows in
// expansion-tiles.ts; an inn or a cathedral is a modifier bit a feature's root gathers on joins.

import { FOLLOWER_SEGS } from '../tiles.ts';
import { MOD_CATHEDRAL, MOD_INN } from '../expansion-tiles.ts';
import type { Expansion, FigureKind } from './expansion.ts';
import { FIGURE_LARGE, MAX_SEATS } from './options.ts';

export { MOD_CATHEDRAL, MOD_INN };

/** Points a tile and a pennant, completed and left open at the end (RULES.md, "Scoring with inns
 * and cathedrals"): an inn's road pays 2 a tile complete, nothing open; a cathedral's city 3 a
 * tile and a pennant complete, nothing open. feature-modifiers.ts's table takes these rows. */
export const INN_ROAD = { mod: MOD_INN, complete: [2, 0], open: [0, 0] } as const;
export const CATHEDRAL_CITY = { mod: MOD_CATHEDRAL, complete: [3, 3], open: [0, 0] } as const;

/** The large follower counts two on its feature (feature-modifiers.ts's FIGURE_STRENGTH). */
export const LARGE_FOLLOWER: FigureKind = {
  figure: FIGURE_LARGE,
  word: 'large follower',
  segs: FOLLOWER_SEGS,
  wrongSpot: (spot) => `only the abbot may stand on "${spot}"`,
};

export const innsCathedrals: Expansion = {
  key: 'innsCathedrals',
  name: 'Inns & Cathedrals',
  seats: MAX_SEATS,
  figures: [LARGE_FOLLOWER],
};
