// One bot search as a worker task: the engine's pure chooseMove, given the thread glue it must
// not have itself (a wall-clock deadline, a cancel flag shared with the server, thread-CPU
// timing). Synchronous, pure CPU: no timers, no promises left behind (an idle piscina worker may
// sit in Atomics.wait and starve them). It imports only what a search needs, because its load
// time is part of the spawn cost the server measures.

import { type ThreadTime, timed } from './thread-time.ts';
import { GameState } from '../../bot-engine/state.ts';
import { type BotLevel, chooseMove } from '../../bot-engine/bots/index.ts';
import { type Move, resolvedToMove } from '../../bot-engine/game.ts';

export interface SearchTask {
  /** GameState bytes, left untouched: the search sees the bag's contents, never its order
   * (chooseMove hides the order on its own copy). */
  state: ArrayBuffer;
  level: BotLevel;
  seed: number;
  /** Safety cap, epoch milliseconds (Date.now scale). */
  deadline: number;
  /** Int32 slot 0 set non-zero by the server to cancel this search without killing the worker. */
  cancel?: SharedArrayBuffer;
}

export interface SearchResult extends ThreadTime {
  move: Move;
  iterations: number;
  hitDeadline: boolean;
  cancelled: boolean;
}

/** One search, stopped by the task's deadline or its cancel flag, whichever comes first. */
export function boundedSearch(task: SearchTask): SearchResult {
  const state = new GameState(task.state);
  const flag = task.cancel ? new Int32Array(task.cancel) : null;
  let hitDeadline = false;
  let cancelled = false;
  const control = {
    shouldStop(): boolean {
      if (flag && Atomics.load(flag, 0) !== 0) cancelled = true;
      else if (Date.now() >= task.deadline) hitDeadline = true;
      return cancelled || hitDeadline;
    },
  };
  const { value: decision, ...time } = timed(() => chooseMove(state, task.level, task.seed, control));
  return { move: resolvedToMove(state, decision), iterations: decision.iterations, hitDeadline, cancelled, ...time };
}
