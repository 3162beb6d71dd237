// What the pool has cost and done, per worker and per task: the numbers behind /api/pool and
// the per-worker gauges on /metrics. Spawn cost (load + warm-up) is kept apart from compute.

import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Metrics } from '../metrics.ts';
import type { PoolSearchResult, WarmupResult, WorkerIdentity } from './worker.ts';
import type { Quantiles, WorkerStats } from '../wire/pool.ts';

export type { Quantiles, WorkerStats };

function quantiles(h: RecordableHistogram): Quantiles {
  const ms = (us: number) => Math.round(us) / 1000;
  if (h.count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  return { count: h.count, p50: ms(h.percentile(50)), p90: ms(h.percentile(90)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export class PoolStats {
  readonly workers = new Map<number, WorkerStats>();
  private readonly queueWait = createHistogram();
  private readonly run = createHistogram();
  private readonly cpu = createHistogram();
  private readonly metrics: Metrics;
  /** Epoch ms at which the pool was created (its first workers' creation time). */
  private readonly createdEpochMs: number;

  constructor(metrics: Metrics, createdEpochMs: number) {
    this.metrics = metrics;
    this.createdEpochMs = createdEpochMs;
  }

  recordWarmup(w: WarmupResult): WorkerStats {
    const id = w.worker;
    const stats: WorkerStats = {
      threadId: id.threadId,
      respawn: false,
      alive: true,
      onlineMs: round(id.originEpochMs + id.loadedMs - this.createdEpochMs),
      warmMs: round(id.originEpochMs + w.warmDoneMs - this.createdEpochMs),
      spawnCpuMs: round(w.warmCpuMs),
      tasks: 0,
      computeCpuMs: 0,
      computeWallMs: 0,
    };
    this.workers.set(id.threadId, stats);
    this.publishWorker(stats);
    return stats;
  }

  /** Epoch ms at which piscina created a replacement worker (keyed by thread id). */
  private readonly respawnCreatedAt = new Map<number, number>();

  markCreated(threadId: number, epochMs: number): void {
    this.respawnCreatedAt.set(threadId, epochMs);
  }

  /** A worker seen for the first time through a search result: a respawned one. */
  private respawned(id: WorkerIdentity): WorkerStats {
    const created = this.respawnCreatedAt.get(id.threadId) ?? this.createdEpochMs;
    const stats: WorkerStats = {
      threadId: id.threadId,
      respawn: true,
      alive: true,
      onlineMs: round(id.originEpochMs + id.loadedMs - created),
      warmMs: id.selfWarm ? round(id.originEpochMs + id.selfWarm.doneMs - created) : null,
      spawnCpuMs: round(id.selfWarm?.cpuMs ?? id.loadCpuMs),
      tasks: 0,
      computeCpuMs: 0,
      computeWallMs: 0,
    };
    this.workers.set(id.threadId, stats);
    return stats;
  }

  /** One search: queue wait is from submission (main thread) to pick-up (worker), both on the
   * process's epoch clock; run time and CPU are the worker's own measurements. */
  recordTask(r: PoolSearchResult, submittedEpochMs: number): void {
    const w = this.workers.get(r.worker.threadId) ?? this.respawned(r.worker);
    w.tasks++;
    w.computeCpuMs = round(w.computeCpuMs + r.cpuMs);
    w.computeWallMs = round(w.computeWallMs + r.runMs);
    this.publishWorker(w);
    const waitMs = Math.max(0, r.startedEpochMs - submittedEpochMs);
    this.queueWait.record(Math.max(1, Math.round(waitMs * 1000)));
    this.run.record(Math.max(1, Math.round(r.runMs * 1000)));
    this.cpu.record(Math.max(1, Math.round(r.cpuMs * 1000)));
    this.metrics.taskQueueWait.observe(waitMs / 1000);
    this.metrics.taskRun.observe(r.runMs / 1000);
    this.metrics.taskCpu.observe(r.cpuMs / 1000);
  }

  /** Marks which workers are still running (an exited thread's id is gone from `alive`). */
  markAlive(alive: Set<number>): void {
    for (const w of this.workers.values()) w.alive = alive.has(w.threadId);
  }

  totals(): { spawnCpuMs: number; computeCpuMs: number; ratio: number | null } {
    let spawn = 0;
    let compute = 0;
    for (const w of this.workers.values()) {
      spawn += w.spawnCpuMs;
      compute += w.computeCpuMs;
    }
    return { spawnCpuMs: round(spawn), computeCpuMs: round(compute), ratio: compute > 0 ? round(spawn / compute) : null };
  }

  tasks(): { queueWaitMs: Quantiles; runMs: Quantiles; cpuMs: Quantiles } {
    return { queueWaitMs: quantiles(this.queueWait), runMs: quantiles(this.run), cpuMs: quantiles(this.cpu) };
  }

  private publishWorker(w: WorkerStats): void {
    const thread = String(w.threadId);
    this.metrics.workerOnline.set({ thread }, w.onlineMs / 1000);
    if (w.warmMs !== null) this.metrics.workerWarm.set({ thread }, w.warmMs / 1000);
    this.metrics.workerSpawnCpu.set({ thread }, w.spawnCpuMs / 1000);
    this.metrics.workerComputeCpu.set({ thread }, w.computeCpuMs / 1000);
    const t = this.totals();
    this.metrics.spawnCpuTotal.set(t.spawnCpuMs / 1000);
    this.metrics.computeCpuTotal.set(t.computeCpuMs / 1000);
    if (t.ratio !== null) this.metrics.spawnComputeRatio.set(t.ratio);
  }
}
