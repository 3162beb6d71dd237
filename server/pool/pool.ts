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
import type { PoolSummary } from '../wire/pool.ts';
import { PoolStats } from './stats.ts';
import type { PoolSearchResult, PoolWorkerData, WarmupResult, WarmupTask } from './worker.ts';

export class PoolStartError extends Error {
  override name = 'PoolStartError';
}

/** Thrown by search() when the queue is at its bound: the caller must not wait. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

export interface PoolOptions {
  sizing: PoolSizing;
  maxQueue: number;
  workerFile: string | null;
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

/** Emits `respawn` (threadId) when a worker replaces one that died after the pool was ready. */
export class BotPool extends EventEmitter<{ respawn: [threadId: number] }> {
  readonly size: number;
  readonly maxQueue: number;
  readonly workerFile: string;
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
    this.log = options.logger;
    this.metrics = options.metrics;
    this.metrics.workersTarget.set(this.size);
    this.metrics.queueBound.set(this.maxQueue);
    this.metrics.poolReady.set(0);
  }

  get ready(): boolean {
    return this.readyAt !== null && !this.closing;
  }

  get queueDepth(): number {
    return this.piscina?.queueSize ?? 0;
  }

  private inFlight = 0;
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
      workerData: { respawnWarmup: { ...warmup, moves: 1 }, respawnFlag: this.respawnFlag.buffer } satisfies PoolWorkerData,
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
        this.log.info({ worker: w }, `bot worker ${w.threadId} warm: online ${w.onlineMs} ms, warm ${w.warmMs} ms, ${w.spawnCpuMs} ms CPU`);
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

  /** Runs a search; rejects with PoolBusyError when the queue is full, AbortError on abort,
   * or the worker's error if it crashed. */
  async search(task: SearchTask, signal?: AbortSignal): Promise<PoolSearchResult> {
    const piscina = this.piscina;
    if (!piscina || this.closing) throw new PoolBusyError('the bot pool is not running');
    if (piscina.queueSize >= this.maxQueue) throw new PoolBusyError('the bot queue is full');
    const started = performance.now();
    this.inFlight++;
    this.metrics.queueDepth.set(piscina.queueSize + 1);
    try {
      const result = (await piscina.run(task, { signal, transferList: [task.state] as never })) as PoolSearchResult;
      this.stats?.recordTask(result, performance.timeOrigin + started);
      return result;
    } finally {
      this.inFlight--;
      this.metrics.queueDepth.set(piscina.queueSize);
      this.metrics.workers.set(piscina.threads.length);
    }
  }

  /** Fraction of the queue bound in use (0..1). */
  get load(): number {
    return this.queueDepth / this.maxQueue;
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
      queue: { depth: this.queueDepth, bound: this.maxQueue, inFlight: this.inFlight },
      utilization: this.piscina?.utilization ?? 0,
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
    this.metrics.poolReady.set(0);
    const piscina = this.piscina;
    this.piscina = null;
    if (piscina) await piscina.destroy();
  }
}
