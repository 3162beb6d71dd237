// The one module that owns the bot worker pool: a fixed number of warm piscina threads running
// the compiled worker, a bounded queue, and the measurements of spawn cost against compute cost.

import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { SearchTask } from './search.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { Metrics } from '../metrics.ts';
import type { PoolSizing } from './sizing.ts';
import type { PoolSummary, TaskClass } from '../wire/pool.ts';
import { PoolStats } from './stats.ts';
import { validNice, WORKER_NICE } from '../thread-priority.ts';
import type { PoolAnalysisResult, PoolSearchResult, PoolWorkerData, WarmupResult, WarmupTask } from './worker.ts';
import type { AnalysisTask } from './analyse.ts';
import type { PositionVerdict } from '../../bot-engine/analysis.ts';
import { nextSearch, predictStartMs, QUICK_MS, RunTimeModel } from './wait-model.ts';

export class PoolStartError extends Error {
  override name = 'PoolStartError';
}

/** Thrown by search() when the queue is at its bound: the caller must not wait. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

export interface PoolOptions {
  sizing: PoolSizing;
  /** Bound on bot searches waiting for a worker. */
  maxQueue: number;
  /** Bound on analysis positions waiting for a worker (the analysis service feeds a few at a
   * time; this only guards against a caller that does not). */
  maxBackgroundQueue?: number;
  /** Bound on hints waiting for a worker (each seat has at most one in flight). */
  maxHintQueue?: number;
  workerFile: string | null;
  /** The OS nice value of the worker threads (0–19), above the event loop's 0 so that the loop
   * preempts a search (thread-priority.ts). Default WORKER_NICE; 0 runs them level with it. */
  workerNice?: number;
  warmupLevel: BotLevel;
  warmupTimeoutMs: number;
  logger: Logger;
  metrics: Metrics;
}

/** The compiled worker: a sibling when running from dist/, else dist/ beside the sources. */
export function defaultWorkerFile(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.js') ? new URL('./worker.js', here) : new URL('../../dist/server/pool/worker.js', here));
}

/** A task waiting for a worker, of any class. */
interface Pending {
  cls: TaskClass;
  run: () => Promise<unknown>;
  expectedMs: number;
  submittedAt: number;
  resolve: (value: never) => void;
  reject: (e: Error) => void;
  /** Hint and analysis: set to make the running task yield its worker. */
  cancel?: Int32Array;
  /** A caller's abort while queued drops it here, free. */
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Running {
  task: Pending;
  startedAt: number;
  preemptedAt: number | null;
}

/** The pool's lead time before a running analysis task has yielded to a bot move (measured:
 * docs/BENCHMARKS.md): what the wait model charges a worker busy with background work. */
const YIELD_MS = 5;

/** Which class goes first: a bot's turn, then a person waiting on a hint, then analysis (a
 * batch job nobody watches move by move). */
const RANK: Record<TaskClass, number> = { interactive: 0, hint: 1, analysis: 2 };

/**
 * Three classes of work on one fixed pool. Bot moves (interactive) always go first; hints (a
 * person asked, and waits) and analysis positions (background) use idle workers only, hints
 * before analysis, and a running one yields (cancel flag) when work of a higher class would
 * otherwise wait: it is run again later. At most `size` tasks are handed to piscina, so its own
 * queue stays empty and the order is ours.
 * Emits `respawn` (threadId) when a worker replaces one that died after the pool was ready.
 */
export class BotPool extends EventEmitter<{ respawn: [threadId: number] }> {
  readonly size: number;
  readonly maxQueue: number;
  readonly workerFile: string;
  readonly workerNice: number;
  private readonly options: PoolOptions;
  private readonly log: Logger;
  private readonly metrics: Metrics;
  private piscina: Piscina | null = null;
  private stats: PoolStats | null = null;
  private readyAt: number | null = null;
  private closing = false;
  private startedAt = 0;
  private respawnCount = 0;
  private warmupMs = 0;

  constructor(options: PoolOptions) {
    super();
    this.options = options;
    this.size = options.sizing.workers;
    this.maxQueue = options.maxQueue;
    this.workerFile = options.workerFile ?? defaultWorkerFile();
    this.workerNice = validNice(options.workerNice ?? WORKER_NICE, 'workerNice');
    this.log = options.logger;
    this.metrics = options.metrics;
    this.metrics.workersTarget.set(this.size);
    this.metrics.queueBound.set(this.maxQueue);
    this.metrics.poolReady.set(0);
    this.metrics.sources.poolUtilization = () => {
      const of = (cls: TaskClass) => this.stats?.busy.utilization(this.size, cls) ?? 0;
      return { interactive: of('interactive'), hint: of('hint'), analysis: of('analysis') };
    };
  }

  get ready(): boolean {
    return this.readyAt !== null && !this.closing;
  }

  /** Bot searches waiting for a worker. */
  get queueDepth(): number {
    return this.queues.interactive.length;
  }

  private readonly queues: Record<TaskClass, Pending[]> = { interactive: [], hint: [], analysis: [] };
  private readonly running = new Set<Running>();
  readonly runTimes = new RunTimeModel();
  private readonly respawnFlag = new Int32Array(new SharedArrayBuffer(4));

  /** Spawns all N workers at once, runs one warm-up search on each, resolves when all are warm.
   * Rejects with PoolStartError if the worker module fails to load or warm-up times out. */
  async start(): Promise<void> {
    const { sizing, warmupLevel, warmupTimeoutMs } = this.options;
    this.log.info(
      {
        pool: {
          workers: sizing.workers,
          reason: sizing.reason,
          availableParallelism: sizing.availableParallelism,
          quotaCpus: sizing.quotaCpus,
          quotaSource: sizing.quotaSource,
          usableCores: sizing.usableCores,
          reservedCores: sizing.reservedCores,
          setting: sizing.setting,
          maxQueue: this.maxQueue,
          workerFile: this.workerFile,
          workerNice: this.workerNice,
        },
      },
      `bot pool: ${sizing.workers} worker(s) (${sizing.reason})`,
    );
    if (!existsSync(this.workerFile)) throw new PoolStartError(`bot worker file ${this.workerFile} does not exist: run \`npm run build\` first`);
    this.startedAt = performance.now();
    const warmup = { level: warmupLevel, moves: 3, budgetMs: 150 };
    const createdEpochMs = performance.timeOrigin + this.startedAt;
    this.stats = new PoolStats(this.metrics, createdEpochMs);
    const piscina = new Piscina({
      filename: this.workerFile,
      minThreads: this.size,
      maxThreads: this.size,
      idleTimeout: Infinity,
      // The queue bound is ours (search() checks it synchronously before run): piscina's own
      // would reject with nothing but a message to tell it from a worker's failure.
      atomics: 'disabled',
      execArgv: [],
      concurrentTasksPerWorker: 1,
      // One search, not three: the search that lost its worker is retried on the replacement
      // and should not wait long for it.
      workerData: { respawnWarmup: { ...warmup, moves: 1 }, respawnFlag: this.respawnFlag.buffer, nice: this.workerNice } satisfies PoolWorkerData,
    });
    this.piscina = piscina;
    piscina.on('error', (err: Error) => this.log.error({ err }, 'bot pool error'));
    piscina.on('workerCreate', (w: { threadId: number }) => {
      if (this.readyAt === null || this.closing) return;
      this.stats?.markCreated(w.threadId, performance.timeOrigin + performance.now());
      this.respawnCount++;
      this.metrics.respawns.inc();
      this.log.warn({ threadId: w.threadId, respawns: this.respawnCount }, 'bot worker respawned after the pool was ready');
      this.emit('respawn', w.threadId);
    });
    piscina.on('workerDestroy', () => {
      if (!this.closing && this.readyAt !== null) this.log.warn('bot worker exited');
    });

    const barrier = new SharedArrayBuffer(8);
    const task: WarmupTask = { ...warmup, seed: 1, barrier, workers: this.size, barrierTimeoutMs: warmupTimeoutMs };
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PoolStartError(`bot pool warm-up did not finish within ${warmupTimeoutMs} ms`)), warmupTimeoutMs);
    });
    try {
      const warmups = Array.from({ length: this.size }, (_, i) => piscina.run({ ...task, seed: i + 1 }, { name: 'warmup', signal: abort.signal }) as Promise<WarmupResult>);
      const results = await Promise.race([Promise.all(warmups), timeout]);
      for (const r of results) {
        const w = this.stats.recordWarmup(r);
        this.log.info({ worker: w }, `bot worker ${w.threadId} warm: online ${w.onlineMs} ms, warm ${w.warmMs} ms, ${w.spawnCpuMs} ms CPU, nice ${w.nice}`);
        if (w.nice !== null && w.nice < this.workerNice)
          this.log.warn({ threadId: w.threadId, nice: w.nice }, `bot worker ${w.threadId} could not take nice ${this.workerNice}: it runs level with the event loop`);
      }
      if (new Set(results.map((r) => r.worker.threadId)).size !== this.size) this.log.warn('warm-up did not reach every worker once');
    } catch (e) {
      // Release any warm-up still waiting at the barrier, then give up on this pool.
      const b = new Int32Array(barrier);
      Atomics.store(b, 1, 1);
      Atomics.notify(b, 0);
      abort.abort();
      await piscina.destroy().catch(() => {});
      this.piscina = null;
      const err = e instanceof PoolStartError ? e : new PoolStartError(`bot worker module ${this.workerFile} failed to load or warm up: ${(e as Error).message}`);
      err.cause = e;
      throw err;
    } finally {
      clearTimeout(timer);
    }
    this.warmupMs = performance.now() - this.startedAt;
    this.readyAt = performance.now();
    // From now on a new thread is a replacement: it warms itself before taking a task.
    Atomics.store(this.respawnFlag, 0, 1);
    this.metrics.poolReady.set(1);
    this.metrics.workers.set(piscina.threads.length);
    this.log.info({ warmupMs: Math.round(this.warmupMs), workers: this.size }, 'bot pool ready: every worker warm');
  }

  /** Runs a bot search (interactive class); rejects with PoolBusyError when the queue is full,
   * AbortError on abort, or the worker's error if it crashed. */
  search(task: SearchTask, signal?: AbortSignal): Promise<PoolSearchResult> {
    const piscina = this.piscina;
    if (!piscina || this.closing) return Promise.reject(new PoolBusyError('the bot pool is not running'));
    if (this.queues.interactive.length >= this.maxQueue) return Promise.reject(new PoolBusyError('the bot queue is full'));
    if (signal?.aborted) return Promise.reject(abortError());
    const expectedMs = Math.min(this.runTimes.expectedMs(task.level), Math.max(0, task.deadline - Date.now()));
    return this.enqueue<PoolSearchResult>({ cls: 'interactive', expectedMs, signal }, async (submittedAt) => {
      const result = (await piscina.run(task, { signal, transferList: [task.state] })) as PoolSearchResult;
      if (!result.cancelled && !result.hitDeadline) this.runTimes.record(task.level, result.runMs);
      this.stats?.recordTask('interactive', result, performance.timeOrigin + submittedAt);
      return result;
    });
  }

  /** A hint: the search a person asked for (hint class). It waits behind every bot move, at most
   * `maxWaitMs` in all (then PoolBusyError), and yields its worker to a bot move, running again
   * afterwards (the search is seeded: the same answer). Never counts toward `load`. */
  hint(task: Omit<SearchTask, 'deadline' | 'cancel'>, budgetMs: number, maxWaitMs: number): Promise<PoolSearchResult> {
    const piscina = this.piscina;
    if (!piscina || this.closing) return Promise.reject(new PoolBusyError('the bot pool is not running'));
    if (this.queues.hint.length >= (this.options.maxHintQueue ?? 4 * this.size)) return Promise.reject(new PoolBusyError('the hint queue is full'));
    // Slot 0: yield (set by pump), slot 1: running (set by the worker).
    const cancel = new SharedArrayBuffer(8);
    const flag = new Int32Array(cancel);
    const signal = AbortSignal.timeout(maxWaitMs);
    const expectedMs = Math.min(this.runTimes.expectedMs(task.level), budgetMs);
    return this.enqueue<PoolSearchResult>({ cls: 'hint', expectedMs, signal, cancel: flag }, async (submittedAt) => {
      Atomics.store(flag, 0, 0);
      const run: SearchTask = { ...task, state: task.state.slice(0), deadline: Date.now() + budgetMs, cancel };
      const result = (await piscina.run(run, { transferList: [run.state] })) as PoolSearchResult;
      if (result.cancelled) {
        this.stats?.recordPreemption(result.cpuMs);
        return RUN_AGAIN;
      }
      if (!result.hitDeadline) this.runTimes.record(task.level, result.runMs);
      this.stats?.recordTask('hint', result, performance.timeOrigin + submittedAt);
      return result;
    }).catch((e: Error) => {
      throw e.name === 'AbortError' ? new PoolBusyError(`no worker was free for the hint within ${maxWaitMs} ms`) : e;
    });
  }

  /** Analyses one position (background class): runs only on a worker no bot move waits for,
   * yields to bot moves and is run again after yielding. Resolves with the verdict (null if the
   * move does not fit the view); rejects with PoolBusyError when the background queue is full. */
  analyse(task: Omit<AnalysisTask, 'cancel'>): Promise<PositionVerdict | null> {
    const piscina = this.piscina;
    if (!piscina || this.closing) return Promise.reject(new PoolBusyError('the bot pool is not running'));
    if (this.queues.analysis.length >= (this.options.maxBackgroundQueue ?? 4 * this.size)) return Promise.reject(new PoolBusyError('the analysis queue is full'));
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    return this.enqueue<PositionVerdict | null>({ cls: 'analysis', expectedMs: this.runTimes.expectedMs('analysis'), cancel: flag }, async (submittedAt) => {
      const result = (await piscina.run({ ...task, cancel }, { name: 'analyse' })) as PoolAnalysisResult;
      // Only a run that finished counts as one (its queue wait spans any earlier, yielded runs).
      if (!result.cancelled) {
        this.stats?.recordTask('analysis', result, performance.timeOrigin + submittedAt);
        this.runTimes.record('analysis', result.runMs);
        return result.verdict;
      }
      this.stats?.recordPreemption(result.cpuMs);
      Atomics.store(flag, 0, 0);
      return RUN_AGAIN;
    });
  }

  /** Milliseconds a bot search expected to run `expectedMs` would wait for a worker if submitted
   * now, from the searches queued and running and their measured run times (hints and analysis
   * yield, so they count as ~free). A quick search waits only for the quick ones queued. */
  predictWaitMs(expectedMs = Number.POSITIVE_INFINITY): number {
    const now = performance.now();
    const busy: number[] = [];
    for (const r of this.running) busy.push(r.task.cls !== 'interactive' ? YIELD_MS : Math.max(0, r.startedAt + r.task.expectedMs - now));
    const ahead = expectedMs <= QUICK_MS ? this.queues.interactive.filter((t) => t.expectedMs <= QUICK_MS) : this.queues.interactive;
    const queuedMs = new Array<number>(ahead.length);
    for (let i = 0; i < ahead.length; i++) queuedMs[i] = ahead[i].expectedMs;
    return predictStartMs(this.size, busy, queuedMs);
  }

  /** Fraction of the bot queue's bound in use (0..1); hints and analysis never count. */
  get load(): number {
    return this.queueDepth / this.maxQueue;
  }

  private enqueue<T>(options: Pick<Pending, 'cls' | 'expectedMs' | 'signal' | 'cancel'>, run: (submittedAt: number) => Promise<T | typeof RUN_AGAIN>): Promise<T> {
    const { cls, signal } = options;
    return new Promise<T>((resolve, reject) => {
      const submittedAt = performance.now();
      const pending: Pending = { ...options, submittedAt, resolve: resolve as (v: never) => void, reject, run: () => run(submittedAt) };
      if (signal) {
        pending.onAbort = () => {
          const queue = this.queues[cls];
          const at = queue.indexOf(pending);
          if (at < 0) return; // running: piscina has the signal (bot moves), or it ends on its own
          queue.splice(at, 1);
          this.publishQueue();
          this.settled(pending);
          reject(abortError());
        };
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queues[cls].push(pending);
      this.publishQueue();
      this.pump();
    });
  }

  /** Starts queued work on free workers, highest class first; makes running work of a lower
   * class yield (analysis before hints) while work of a higher class waits. */
  private pump(): void {
    while (this.running.size < this.size && !this.closing) {
      const searches = this.queues.interactive;
      const next = searches.length > 0 ? searches.splice(nextSearch(searches, performance.now()), 1)[0] : (this.queues.hint.shift() ?? this.queues.analysis.shift());
      if (!next) break;
      this.dispatch(next);
    }
    // Each waiter claims one running task of a lower class; one already yielding counts as claimed.
    const yielding = [...this.running].filter((r) => r.task.cancel).sort((a, b) => RANK[b.task.cls] - RANK[a.task.cls]);
    const claimed = new Set<Running>();
    for (const cls of ['interactive', 'hint'] as const) {
      let waiting = this.queues[cls].length;
      for (const r of yielding) {
        if (waiting === 0) break;
        if (RANK[r.task.cls] <= RANK[cls] || claimed.has(r)) continue;
        claimed.add(r);
        waiting--;
        if (r.preemptedAt !== null) continue;
        r.preemptedAt = performance.now();
        Atomics.store(r.task.cancel!, 0, 1);
      }
    }
    this.publishQueue();
  }

  private dispatch(task: Pending): void {
    const running: Running = { task, startedAt: performance.now(), preemptedAt: null };
    this.running.add(running);
    this.stats?.busy.start(task.cls, running.startedAt);
    task.run().then(
      (value) => {
        this.finish(running);
        if (value === RUN_AGAIN) {
          if (running.preemptedAt !== null) this.stats?.recordYield(performance.now() - running.preemptedAt);
          // A hint past its wait bound is not queued again: its caller has stopped waiting.
          if (task.signal?.aborted) {
            this.settled(task);
            task.reject(abortError());
          } else this.queues[task.cls].unshift(task);
        } else {
          this.settled(task);
          task.resolve(value as never);
        }
        this.pump();
      },
      (e: Error) => {
        this.finish(running);
        this.settled(task);
        task.reject(e);
        this.pump();
      },
    );
  }

  private finish(running: Running): void {
    this.running.delete(running);
    this.stats?.busy.end(running.task.cls, running.startedAt, performance.now());
    if (this.piscina) this.metrics.workers.set(this.piscina.threads.length);
  }

  /** The task's caller has its answer: its abort no longer concerns the pool. */
  private settled(task: Pending): void {
    if (task.signal && task.onAbort) task.signal.removeEventListener('abort', task.onAbort);
  }

  private publishQueue(): void {
    this.metrics.queueDepth.set(this.queues.interactive.length);
    this.metrics.hintQueueDepth.set(this.queues.hint.length);
    this.metrics.backgroundQueueDepth.set(this.queues.analysis.length);
  }

  summary(): PoolSummary {
    const stats = this.stats;
    stats?.markAlive(new Set((this.piscina?.threads ?? []).map((t) => t.threadId)));
    const totals = stats?.totals() ?? { spawnCpuMs: 0, computeCpuMs: 0, ratio: null };
    return {
      ready: this.ready,
      size: this.size,
      sizing: this.options.sizing,
      alive: this.piscina?.threads.length ?? 0,
      warmupMs: Math.round(this.warmupMs * 1000) / 1000,
      queue: { depth: this.queueDepth, bound: this.maxQueue, inFlight: this.running.size },
      utilization: stats?.busy.utilization(this.size) ?? 0,
      classes: stats?.classes(this.size, { interactive: this.queues.interactive.length, hint: this.queues.hint.length, analysis: this.queues.analysis.length }) ?? null,
      predictedWaitMs: Math.round(this.predictWaitMs() * 1000) / 1000,
      respawns: this.respawnCount,
      workers: stats ? [...stats.workers.values()] : [],
      tasks: stats?.tasks() ?? null,
      spawnCpuMs: totals.spawnCpuMs,
      computeCpuMs: totals.computeCpuMs,
      spawnToComputeCpuRatio: totals.ratio,
    };
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const cls of ['interactive', 'hint', 'analysis'] as const) for (const t of this.queues[cls].splice(0)) t.reject(new PoolBusyError('the bot pool is closing'));
    this.metrics.poolReady.set(0);
    const piscina = this.piscina;
    this.piscina = null;
    if (piscina) await piscina.destroy();
  }
}

/** A yielded hint's or analysis task's answer: queue it again (its answer will be the same). */
const RUN_AGAIN = Symbol('run again');

/** The platform's AbortError (what fetch or a timer rejects with on abort): the name piscina's
 * own abort rejection carries too, so a caller tells both apart from a failure the same way. */
function abortError(): DOMException {
  return new DOMException('The operation was aborted', 'AbortError');
}
