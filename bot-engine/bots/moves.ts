// Move enumeration and one-ply scoring shared by the greedy, heuristic and search bots.
// A move is packed into one int: ((fi << 2 | r) << SPOT_BITS) | (spot + 1), spot a figure-spot
// (rules.ts's `figureSpot`: local segment | figure << 3) or an expansion's turn action.

import { GameState, H_OPTIONS, MAX_SEATS, MAX_PLACEMENTS } from '../state.ts';
import { addFollowerToLastPlaced, bagEmpty, FIGURE_SHIFT, figureSpot, finalScoring, listPlacements, openFigureSpots, place, takeBackFollowerFromLastPlaced } from '../rules.ts';
import { ACTION_ALLOWED, ACTION_OPTION, ACTION_SPOT } from '../expansions/index.ts';
import { FIGURE_KINDS } from '../expansions/options.ts';
import { evaluate, finalValues, margin } from './evaluate.ts';
import type { Rng } from '../rng.ts';

/** Upper bound on moves for one tile: placements × (no figure + up to 8 spots × 2 figures + the abbot). */
export const MAX_MOVES = 16384;

/** Bits for spot + 1: every figure-spot and turn action (5 with the Abbot's 24). */
/** Figure-spots from here on are turn actions (a figure-spot is local | figure << FIGURE_SHIFT). */
const FIRST_ACTION_SPOT = FIGURE_KINDS << FIGURE_SHIFT;
const LAST_SPOT = Math.max(FIRST_ACTION_SPOT - 1, ...ACTION_SPOT);
const SPOT_BITS = 32 - Math.clz32(LAST_SPOT + 1);
const SPOT_MASK = (1 << SPOT_BITS) - 1;

export function packMove(fi: number, r: number, spot: number): number {
  return (((fi << 2) | r) << SPOT_BITS) | (spot + 1);
}
export function moveFi(m: number): number {
  return m >> (SPOT_BITS + 2);
}
export function moveR(m: number): number {
  return (m >> SPOT_BITS) & 3;
}
export function moveSpot(m: number): number {
  return (m & SPOT_MASK) - 1;
}
/** The placement part (fi, r) of a packed move. */
function placementOf(m: number): number {
  return m >> SPOT_BITS;
}

const placements = new Int32Array(MAX_PLACEMENTS);

/** Every legal move of the current tile (with and without a follower), packed. */
export function listMoves(s: GameState, out: Int32Array): number {
  const type = s.currentTile;
  const n = listPlacements(s, type, placements);
  const options = s.h[H_OPTIONS];
  let k = 0;
  for (let i = 0; i < n; i++) {
    const fi = placements[i] >> 2;
    const r = placements[i] & 3;
    out[k++] = packMove(fi, r, -1);
    for (let a = 0; a < ACTION_SPOT.length; a++) if (options & ACTION_OPTION[a] && ACTION_ALLOWED[a](s, fi)) out[k++] = packMove(fi, r, ACTION_SPOT[a]);
    openFigureSpots(s, type, r, s.fcell[fi], masks);
    for (let figure = 0; figure < FIGURE_KINDS; figure++) k = addSpots(out, k, fi, r, masks[figure], figure);
  }
  return k;
}
const masks = new Int32Array(FIGURE_KINDS);

function addSpots(out: Int32Array, k: number, fi: number, r: number, spots: number, figure: number): number {
  while (spots !== 0) {
    const local = 31 - Math.clz32(spots & -spots);
    spots &= spots - 1;
    out[k++] = packMove(fi, r, figureSpot(local, figure));
  }
  return k;
}

export function applyPacked(s: GameState, m: number): void {
  place(s, moveFi(m), moveR(m), moveSpot(m));
}

const values = new Float64Array(MAX_SEATS);
let placed: GameState | null = null;

/**
 * Value of each move for the player to move: `mode` 'greedy' = lead if the game ended right
 * after the move (immediate score plus everything as it would score now); 'heuristic' = lead by
 * the static evaluation. Scores moves[first .. first + count) into the same places of `scores`;
 * uses `scratch` (clobbered).
 * A follower move right after its placement's move without one (listMoves' order) is scored
 * on that placed copy, the follower added and taken back, instead of copying the state and
 * placing the tile again: the same state, a fraction of the work. The evaluation also reuses
 * what it found on that board (followers do not change it).
 */
export function scoreMoves(s: GameState, moves: Int32Array, count: number, scores: Float64Array, scratch: GameState, mode: 'greedy' | 'heuristic', first = 0): void {
  const me = s.currentPlayer;
  const players = s.players;
  placed ??= new GameState();
  let placement = -1; // the fi/r part of the move `placed` holds
  let sawPlaced = false; // the last evaluation was of `placed`'s board (the evaluation reuses it)
  for (let i = first; i < first + count; i++) {
    const m = moves[i];
    const spot = moveSpot(m);
    const lastSawPlaced = sawPlaced;
    sawPlaced = false;
    if (spot < 0) {
      applyPacked(placed.copyFrom(s), m);
      placement = placementOf(m);
      sawPlaced = judgedByEvaluation(placed, mode);
      if (sawPlaced) evaluate(placed, values);
      else value(scratch.copyFrom(placed), mode); // final scoring must not touch `placed`
    } else if (placement === placementOf(m) && spot < FIRST_ACTION_SPOT && judgedByEvaluation(placed, mode) && addFollowerToLastPlaced(placed, spot)) {
      evaluate(placed, values, lastSawPlaced);
      takeBackFollowerFromLastPlaced(placed, spot);
      sawPlaced = true;
    } else {
      applyPacked(scratch.copyFrom(s), m);
      value(scratch, mode);
    }
    scores[i] = margin(values, players, me);
  }
}

function judgedByEvaluation(s: GameState, mode: 'greedy' | 'heuristic'): boolean {
  return mode === 'heuristic' && !bagEmpty(s);
}

/** Each player's value after a move into `values` (final scoring changes `s`). */
function value(s: GameState, mode: 'greedy' | 'heuristic'): void {
  if (judgedByEvaluation(s, mode)) evaluate(s, values);
  else {
    finalScoring(s);
    finalValues(s, values);
  }
}

/** Index of the best score; exact ties broken by `rng` (reservoir), so the choice is seeded. */
export function argmax(scores: Float64Array, count: number, rng: Rng): number {
  let best = 0;
  let ties = 1;
  for (let i = 1; i < count; i++) {
    const d = scores[i] - scores[best];
    if (d > 1e-9) {
      best = i;
      ties = 1;
    } else if (d > -1e-9) {
      ties++;
      if (rng.below(ties) === 0) best = i;
    }
  }
  return best;
}
