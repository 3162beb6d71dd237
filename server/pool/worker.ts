// The pool's worker entry: the bots' search, plus what the server needs to measure spawn cost
// (module load time and thread CPU) and a warm-up task. Synchronous only: nothing is left on the
// event loop. Imports stay minimal because load time is part of the spawn cost.

import { threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { boundedSearch, type SearchResult, type SearchTask } from './search.ts';
import { boundedAnalysis, type AnalysisResult, type AnalysisTask } from './analyse.ts';
import { newGame, playMove } from '../../bot-engine/game.ts';
import { hideBag } from '../../bot-engine/rules.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import { lowerThreadPriority } from '../thread-priority.ts';

// Measured once, when this module has finished loading (everything imported above included).
const loadedMs = performance.now();
const loadCpu = process.threadCpuUsage();

export interface WorkerIdentity {
  threadId: number;
  /** Epoch ms when this thread started (its performance.timeOrigin). */
  originEpochMs: number;
  /** Thread start → this module loaded, ms. */
  loadedMs: number;
  /** Thread CPU spent until the module was loaded, ms. */
  loadCpuMs: number;
  /** A respawned thread's own warm-up at load: thread start → done, and thread CPU until then. */
  selfWarm?: { doneMs: number; cpuMs: number };
  /** The OS nice value this thread runs at; null where it has none of its own (thread-priority.ts). */
  nice: number | null;
}

const data = workerData as Partial<PoolWorkerData> | null;

const identity: WorkerIdentity = {
  threadId,
  originEpochMs: performance.timeOrigin,
  loadedMs,
  loadCpuMs: (loadCpu.user + loadCpu.system) / 1000,
  nice: lowerThreadPriority(data?.nice ?? 0),
};

/** What the pool passes every thread (piscina hands `workerData` through unchanged). */
export interface PoolWorkerData {
  /** The warm-up a replacement thread runs on itself before its first task. */
  respawnWarmup: Pick<WarmupTask, 'level' | 'moves' | 'budgetMs'>;
  /** Int32 flag the pool sets once it is ready: a thread loading after that is a respawn. */
  respawnFlag: SharedArrayBuffer;
  /** The OS nice value a worker thread takes at load, below the event loop's (0: the loop's own). */
  nice: number;
}

export interface PoolSearchResult extends SearchResult {
  worker: WorkerIdentity;
  /** Epoch ms (high resolution) when this worker picked the task up: queue wait ends here. */
  startedEpochMs: number;
  /** The task's state bytes, untouched, moved back (not copied) to the caller, which plays the
   * move on them: the only copy of the state a bot move costs the server. */
  state?: ArrayBuffer;
}

/** A bot search as the pool runs it: the search, plus which worker ran it and when it began. */
export function poolSearch(task: SearchTask): PoolSearchResult {
  const startedEpochMs = performance.timeOrigin + performance.now();
  // Slot 1 of the cancel flags says "running": the scheduler never hard-aborts a task that is
  // still queued-then-started within its grace, which would cost a worker respawn.
  if (task.cancel && task.cancel.byteLength >= 8) Atomics.store(new Int32Array(task.cancel), 1, 1);
  return { ...boundedSearch(task), worker: identity, startedEpochMs };
}

/** piscina runs the default export for a task without a name: the search, whose state bytes
 * go back with its answer (moved, as they came). A buffer inside an answer moves the way
 * piscina's docs give (interface Transferable): the answer as the value, the buffer in the
 * transfer list; the caller receives the PoolSearchResult. */
export default function searchAndReturn(task: SearchTask): ReturnType<typeof move> {
  const result: PoolSearchResult = { ...poolSearch(task), state: task.state };
  return move({ [transferableSymbol]: [task.state], [valueSymbol]: result });
}

export interface PoolAnalysisResult extends AnalysisResult {
  worker: WorkerIdentity;
  startedEpochMs: number;
}

/** A game-analysis position (task name 'analyse'): background class, preemptible. */
export function analyse(task: AnalysisTask): PoolAnalysisResult {
  const startedEpochMs = performance.timeOrigin + performance.now();
  return { ...boundedAnalysis(task), worker: identity, startedEpochMs };
}

export interface WarmupTask {
  level: BotLevel;
  seed: number;
  /** Moves of a fresh game to search and play. */
  moves: number;
  /** Milliseconds each warm-up search may take. */
  budgetMs: number;
  /** Int32 [arrived, abort]: every warm-up waits here until all workers hold one, so each
   * worker gets exactly one warm-up task. */
  barrier?: SharedArrayBuffer;
  workers: number;
  barrierTimeoutMs: number;
}

export interface WarmupResult {
  worker: WorkerIdentity;
  /** Thread start → warm-up done, ms. */
  warmDoneMs: number;
  /** Thread CPU from start until warm-up done (load + warm-up), ms. */
  warmCpuMs: number;
  searches: number;
  barrierTimedOut: boolean;
}

export function warmup(task: WarmupTask): WarmupResult {
  let barrierTimedOut = false;
  if (task.barrier) {
    const b = new Int32Array(task.barrier);
    Atomics.add(b, 0, 1);
    Atomics.notify(b, 0);
    const until = Date.now() + task.barrierTimeoutMs;
    for (;;) {
      const arrived = Atomics.load(b, 0);
      if (arrived >= task.workers || Atomics.load(b, 1) !== 0) break;
      const left = until - Date.now();
      if (left <= 0) {
        barrierTimedOut = true;
        break;
      }
      Atomics.wait(b, 0, arrived, left);
    }
  }
  const state = newGame({ players: 2, seed: `warmup-${task.seed}` });
  let searches = 0;
  for (; searches < task.moves && !state.finished; searches++) {
    const view = hideBag(state.clone());
    const result = boundedSearch({ state: view.buffer, level: task.level, seed: task.seed + searches, deadline: Date.now() + task.budgetMs });
    if ('error' in playMove(state, result.move)) break;
  }
  const cpu = process.threadCpuUsage();
  return { worker: identity, warmDoneMs: performance.now(), warmCpuMs: (cpu.user + cpu.system) / 1000, searches, barrierTimedOut };
}

// A thread that loads after the pool is ready replaces a crashed one. piscina cannot route a
// warm-up task to one thread, so it warms itself here, before piscina hands it its first task:
// no player's search pays its JIT.
if (data?.respawnFlag && data.respawnWarmup && Atomics.load(new Int32Array(data.respawnFlag), 0) === 1) {
  const warm = warmup({ ...data.respawnWarmup, seed: threadId, workers: 1, barrierTimeoutMs: 0 });
  identity.selfWarm = { doneMs: warm.warmDoneMs, cpuMs: warm.warmCpuMs };
}
