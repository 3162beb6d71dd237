// One position of a game analysis as a worker task: the engine's pure analysePosition, given the
// thread glue (a cancel flag shared with the pool, thread-CPU timing). Background work: the pool
// sets the flag when a bot move needs the worker, and a cancelled task has no verdict (the pool
// queues it again; the result is the same, as the analysis is iteration-bounded).

import { type PositionVerdict, analysePosition } from '../../bot-engine/analysis.ts';
import type { Move } from '../../bot-engine/game.ts';
import { GameState } from '../../bot-engine/state.ts';
import { type ThreadTime, timed } from './thread-time.ts';

export interface AnalysisTask {
  /** GameState bytes of the mover's view (bag hidden). */
  state: ArrayBuffer;
  played: Move;
  seed: number;
  /** Int32 slot 0 set non-zero by the pool to make the task yield its worker. */
  cancel: SharedArrayBuffer;
}

export interface AnalysisResult extends ThreadTime {
  /** null: cancelled (or the move does not fit the view). */
  verdict: PositionVerdict | null;
  cancelled: boolean;
}

/** One position's analysis, stopped early by its cancel flag. */
export function boundedAnalysis(task: AnalysisTask): AnalysisResult {
  const flag = new Int32Array(task.cancel);
  let cancelled = false;
  const control = { shouldStop: () => (cancelled ||= Atomics.load(flag, 0) !== 0) };
  const { value: verdict, ...time } = timed(() => analysePosition(new GameState(task.state), task.played, task.seed, control));
  return { verdict, cancelled, ...time };
}
