// Every expansion the engine plays, and the tables the core reads their hooks from: by rule key,
// by figure kind, by tile type. Adding an expansion is its module plus a line here (and its key
// and header block in options.ts).

import { FOLLOWER_SEGS, TYPE_COUNT } from '../tiles.ts';
import { abbot } from './abbot.ts';
import type { Expansion, FigureKind, TurnAction } from './expansion.ts';
import { innsCathedrals } from './inns-cathedrals.ts';
import { EXPANSION_KEYS, FIGURE_FOLLOWER, FIGURE_KINDS, optionBit } from './options.ts';
import { river } from './river.ts';

export type { Expansion, FigureKind, TurnAction };

/** In options.ts's key order, so EXPANSIONS[i]'s option bit is 1 << i. */
export const EXPANSIONS: readonly Expansion[] = [river, innsCathedrals, abbot];
EXPANSIONS.forEach((e, i) => {
  if (e.key !== EXPANSION_KEYS[i]) throw new Error(`expansion ${e.key} listed out of options.ts's order`);
});

/** The base game's figure. */
const FOLLOWER: FigureKind = {
  figure: FIGURE_FOLLOWER,
  word: 'follower',
  segs: FOLLOWER_SEGS,
  wrongSpot: (spot) => `only the abbot may stand on "${spot}"`,
};

/** Every figure kind by index (a figure-spot's figure bits), and the option bit that brings it
 * (0 for the follower). */
export const FIGURES: readonly FigureKind[] = [FOLLOWER];
export const FIGURE_OPTION: number[] = [0];
/** The expansion that brings each figure kind (undefined for the follower). */
export const FIGURE_EXPANSION: (Expansion | undefined)[] = [undefined];
for (const e of EXPANSIONS) {
  for (const f of e.figures ?? []) {
    (FIGURES as FigureKind[])[f.figure] = f;
    FIGURE_OPTION[f.figure] = optionBit(e.key);
    FIGURE_EXPANSION[f.figure] = e;
  }
}
if (FIGURES.length !== FIGURE_KINDS || FIGURES.some((f, i) => f?.figure !== i)) throw new Error('every figure kind needs one module');

/** The expansion deciding each tile type's placements, or undefined (the base game's constraint table). */
export const TILE_RULES: readonly (Expansion | undefined)[] = Array.from({ length: TYPE_COUNT }, (_, t) => EXPANSIONS.find((e) => e.ownTiles?.[t] === 1));

/** The turn actions by figure-spot value, with the option bit that allows each. */
export const TURN_ACTIONS: readonly { action: TurnAction; expansion: Expansion; option: number }[] = EXPANSIONS.flatMap((e) =>
  e.turnAction ? [{ action: e.turnAction, expansion: e, option: optionBit(e.key) }] : [],
);

/** The expansions on in a state's option bits. */
export function expansionsOn(options: number): Expansion[] {
  return EXPANSIONS.filter((e) => options & optionBit(e.key));
}

// The same hooks as flat arrays, for the hot paths (a search places tiles and figures millions of
// times): one array read, no property chain.
/** Where each figure kind may stand, by tile type. */
export const FIGURE_SEGS: readonly Uint8Array[] = FIGURES.map((f) => f.segs);
export const FIGURE_STOOD = FIGURES.map((f) => f.stood);
export const FIGURE_WENT_HOME = FIGURES.map((f) => f.wentHome);
/** By tile type: 1 when an expansion decides its placements (a byte table, so the base game's
 * check stays in one cache line when a search runs through many states), the expansion's
 * placement lister, and its hook as one of its tiles goes down. */
export const TILE_OWNED = Uint8Array.from(TILE_RULES, (e) => (e === undefined ? 0 : 1));
export const TILE_PLACEMENTS = TILE_RULES.map((e) => e?.listPlacements);
export const TILE_PLACING = TILE_RULES.map((e) => e?.placing);
/** By turn action: its figure-spot, the option bit that allows it, and whether it may be done. */
export const ACTION_SPOT = Int32Array.from(TURN_ACTIONS, (t) => t.action.spot);
export const ACTION_OPTION = Int32Array.from(TURN_ACTIONS, (t) => t.option);
export const ACTION_ALLOWED = TURN_ACTIONS.map((t) => t.action.allowed);
