// `greedy`: the move that leaves it furthest ahead if the game ended right after it (points
// scored by the move plus every feature and farm as final scoring would count it now).

import { GameState } from '../state.ts';
import { Rng } from '../rng.ts';
import { MAX_MOVES, argmax, listMoves, moveFi, moveR, moveSpot, scoreMoves } from './moves.ts';
import type { BotDecision, SearchControl } from './index.ts';

const moves = new Int32Array(MAX_MOVES);
const scores = new Float64Array(MAX_MOVES);
let scratch: GameState | null = null;

export function onePlyMove(view: GameState, seed: number, mode: 'greedy' | 'heuristic'): BotDecision {
  scratch ??= new GameState();
  const n = listMoves(view, moves);
  scoreMoves(view, moves, n, scores, scratch, mode);
  return decision(moves[argmax(scores, n, new Rng(seed))], n, false);
}

/** With a control, the moves are scored in a seeded shuffled order until it says stop (at least
 * one is scored) and the best of those is played: a bounded cost for the server's main-thread
 * fallback, where final scoring over every move late in a game takes tens of ms. A control that
 * never stops, or none, gives exactly the move of scoring them all. */
export function greedyMove(view: GameState, seed: number, control?: SearchControl): BotDecision {
  if (!control) return onePlyMove(view, seed, 'greedy');
  scratch ??= new GameState();
  const n = listMoves(view, moves);
  const rng = new Rng(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  rng.shuffle(order);
  let scored = 0;
  do {
    // Greedy judges each move by final scoring alone: one at a time scores as in bulk.
    const i = order[scored++];
    scoreMoves(view, moves, 1, scores, scratch, 'greedy', i);
  } while (scored < n && !control.shouldStop());
  if (scored === n) return decision(moves[argmax(scores, n, new Rng(seed))], n, false);
  const seen = Float64Array.from(order.slice(0, scored), (i) => scores[i]);
  return decision(moves[order[argmax(seen, scored, rng)]], scored, true);
}

function decision(m: number, iterations: number, stopped: boolean): BotDecision {
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations, stopped };
}
