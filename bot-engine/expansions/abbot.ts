// The Abbot (docs/RULES.md, "The abbot"): an abbot each, standing only on a monastery or a garden
// (the gardens are tile rows in expansion-tiles.ts, scored as monasteries are), and a turn may take
// it back instead of placing a figure, scoring its monastery or garden as it stands. It owns its
// header slots (where each player's abbot stands), the figure and the turn action.

import { KIND_GARDEN, KIND_MONASTERY, MAX_SEGMENTS, SEG_COUNT, SEG_KIND, TYPE_COUNT } from '../tiles.ts';
import { type GameState, H_CURRENT, H_EXPANSIONS, MAX_SEATS, supplySlot } from '../state.ts';
import { cloisterPoints } from '../feature-modifiers.ts';
import { type ScoreEvent, award } from '../score-events.ts';
import type { Expansion, FigureKind, TurnAction } from './expansion.ts';
import { FIGURE_ABBOT, headerBlock } from './options.ts';

/** MAX_SEATS slots: the placement (+ 1) whose monastery or garden holds the player's abbot; 0 when in the supply. */
const H_ABBOT_AT = H_EXPANSIONS + headerBlock('abbot', MAX_SEATS);

/** The figure-spot of a move that takes the mover's abbot back instead of placing a figure: one
 * past every real figure-spot (local | figure << 3). */
export const RETURN_ABBOT = 3 << 3;
/** `pfigure` of a placement whose player took the abbot back. */
export const PFIGURE_RETURNED_ABBOT = 3;

/** Whether `player`'s abbot stands on the board. */
export function abbotOut(s: GameState, player: number): boolean {
  return s.h[H_ABBOT_AT + player] > 0;
}

/** The abbot's monastery or garden node for `player`, or -1 when the abbot is in the supply. */
export function abbotNode(s: GameState, player: number): number {
  const at = s.h[H_ABBOT_AT + player] - 1;
  return at < 0 ? -1 : at * MAX_SEGMENTS + s.pspot[at];
}

/** Whether the mover may take the abbot back on placing the current tile on frontier slot fi:
 * it stands on the board, and that tile does not complete its monastery or garden (it scores 9 then). */
export function mayReturnAbbot(s: GameState, fi: number): boolean {
  const node = abbotNode(s, s.h[H_CURRENT]);
  return node >= 0 && missingAfter(s, node, s.fx[fi], s.fy[fi]) > 0;
}

/** The neighbours a monastery or garden will miss once a tile lands on (x, y). */
function missingAfter(s: GameState, node: number, x: number, y: number): number {
  const p = (node / MAX_SEGMENTS) | 0;
  return s.open[node] - (Math.abs(x - s.px[p]) <= 1 && Math.abs(y - s.py[p]) <= 1 ? 1 : 0);
}

/** Takes `player`'s abbot back, scoring its monastery or garden as it stands with the tile at
 * (x, y) counted among its neighbours. */
function returnAbbot(s: GameState, player: number, x: number, y: number, events?: ScoreEvent[]): void {
  const node = abbotNode(s, player);
  const missing = missingAfter(s, node, x, y);
  award(s, 1 << player, cloisterPoints(missing), s.kind[node], 'play', 9 - missing, events);
  s.owner[node] = -1;
  s.meeples[node] = 0;
  s.h[supplySlot(FIGURE_ABBOT, player)]++;
  s.h[H_ABBOT_AT + player] = 0;
}

/** Local segments the abbot may take: a monastery or a garden. [type] */
const ABBOT_SEGS = new Uint8Array(TYPE_COUNT);
for (let t = 0; t < TYPE_COUNT; t++) {
  for (let i = 0; i < SEG_COUNT[t]; i++) {
    const kind = SEG_KIND[t * MAX_SEGMENTS + i];
    if (kind === KIND_GARDEN || kind === KIND_MONASTERY) ABBOT_SEGS[t] |= 1 << i;
  }
}

export const ABBOT: FigureKind = {
  figure: FIGURE_ABBOT,
  word: 'abbot',
  segs: ABBOT_SEGS,
  wrongSpot: (spot) => `the abbot stands only on a monastery or a garden, not on "${spot}"`,
  stood: (s, player, placement) => {
    s.h[H_ABBOT_AT + player] = placement + 1;
  },
  wentHome: (s, player) => {
    s.h[H_ABBOT_AT + player] = 0;
  },
};

export const TAKE_ABBOT_BACK: TurnAction = {
  spot: RETURN_ABBOT,
  pfigure: PFIGURE_RETURNED_ABBOT,
  allowed: mayReturnAbbot,
  refusal(s, fi) {
    if (abbotNode(s, s.h[H_CURRENT]) < 0) return 'your abbot is not on the board';
    if (!mayReturnAbbot(s, fi)) return "this tile completes your abbot's monastery or garden: it scores 9 and comes home by itself";
    return null;
  },
  apply: returnAbbot,
};

export const abbot: Expansion = {
  key: 'abbot',
  name: 'the Abbot',
  figures: [ABBOT],
  turnAction: TAKE_ABBOT_BACK,
};
