// `heuristic`: one ply, every legal move judged by the static evaluation (evaluate.ts): chance
// of completing each unfinished feature given the tiles left, follower economy, stranded
// followers, farms as they would score now, joining and blocking through majorities and cells
// no remaining tile can fill.

import type { GameState } from '../state.ts';
import { onePlyMove } from './greedy.ts';
import type { BotDecision } from './index.ts';

export function heuristicMove(view: GameState, seed: number): BotDecision {
  return onePlyMove(view, seed, 'heuristic');
}
