// `greedy`: the move that leaves it furthest ahead if the game ended right after it (points
// scored by the move plus every feature and farm as final scoring would count it now).

import { GameState } from '../state.ts';
import { Rng } from '../rng.ts';
import { MAX_MOVES, argmax, listMoves, moveFi, moveR, moveSpot, scoreMoves } from './moves.ts';
import type { BotDecision } from './index.ts';

const moves = new Int32Array(MAX_MOVES);
const scores = new Float64Array(MAX_MOVES);
let scratch: GameState | null = null;

export function onePlyMove(view: GameState, seed: number, mode: 'greedy' | 'heuristic'): BotDecision {
  scratch ??= new GameState();
  const n = listMoves(view, moves);
  scoreMoves(view, moves, n, scores, scratch, mode);
  const m = moves[argmax(scores, n, new Rng(seed))];
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations: n, stopped: false };
}

export function greedyMove(view: GameState, seed: number): BotDecision {
  return onePlyMove(view, seed, 'greedy');
}
