// What the pool has cost and done, per worker and per task: the numbers behind /api/pool and
// the per-worker gauges on /metrics. Spawn cost (load + warm-up) is kept apart from compute.

import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Metrics } from '../metrics.ts';
import type { PoolAnalysisResult, PoolSearchResult, WarmupResult, WorkerIdentity } from './worker.ts';
import type { ClassReport, Quantiles, TaskClass, WorkerStats } from '../wire/pool.ts';
import { LOOP_WINDOW_SECONDS } from '../metrics.ts';

export type { Quantiles, WorkerStats };

function quantiles(h: RecordableHistogram): Quantiles {
  const ms = (us: number) => Math.round(us) / 1000;
  if (h.count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  return { count: h.count, p50: ms(h.percentile(50)), p90: ms(h.percentile(90)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Worker time spent per class over a rolling window: the pool's utilisation. */
export class BusyMeter {
  private readonly windowMs: number;
  private readonly done: { cls: TaskClass; start: number; end: number }[] = [];
  private readonly open: { cls: TaskClass; start: number }[] = [];

  constructor(windowMs = LOOP_WINDOW_SECONDS * 1000) {
    this.windowMs = windowMs;
  }

  start(cls: TaskClass, at: number): void {
    this.open.push({ cls, start: at });
  }

  end(cls: TaskClass, startedAt: number, at: number): void {
    const i = this.open.findIndex((o) => o.cls === cls && o.start === startedAt);
    if (i >= 0) this.open.splice(i, 1);
    this.done.push({ cls, start: startedAt, end: at });
    while (this.done.length > 0 && this.done[0].end < at - this.windowMs) this.done.shift();
  }

  /** Busy worker time over the window ÷ (workers × window), for one class or both (0..1). */
  utilization(workers: number, cls?: TaskClass, now = performance.now()): number {
    const from = now - this.windowMs;
    let busy = 0;
    for (const d of this.done) if (!cls || d.cls === cls) busy += Math.max(0, d.end - Math.max(d.start, from));
    for (const o of this.open) if (!cls || o.cls === cls) busy += now - Math.max(o.start, from);
    return Math.min(1, round(busy / (Math.max(1, workers) * this.windowMs)));
  }
}

class ClassHistograms {
  readonly queueWait = createHistogram();
  readonly run = createHistogram();
  readonly cpu = createHistogram();

  report(): { queueWaitMs: Quantiles; runMs: Quantiles; cpuMs: Quantiles } {
    return { queueWaitMs: quantiles(this.queueWait), runMs: quantiles(this.run), cpuMs: quantiles(this.cpu) };
  }
}

export class PoolStats {
  readonly workers = new Map<number, WorkerStats>();
  readonly busy = new BusyMeter();
  private readonly byClass: Record<TaskClass, ClassHistograms> = { interactive: new ClassHistograms(), hint: new ClassHistograms(), analysis: new ClassHistograms() };
  private readonly yieldMs = createHistogram();
  private preemptions = 0;
  private wastedCpuMs = 0;
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
      nice: id.nice,
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
      nice: id.nice,
      tasks: 0,
      computeCpuMs: 0,
      computeWallMs: 0,
    };
    this.workers.set(id.threadId, stats);
    this.publishWorker(stats);
    return stats;
  }

  /** One task: queue wait is from submission (main thread) to pick-up (worker), both on the
   * process's epoch clock; run time and CPU are the worker's own measurements. */
  recordTask(cls: TaskClass, r: PoolSearchResult | PoolAnalysisResult, submittedEpochMs: number): void {
    const w = this.workers.get(r.worker.threadId) ?? this.respawned(r.worker);
    w.tasks++;
    w.computeCpuMs = round(w.computeCpuMs + r.cpuMs);
    w.computeWallMs = round(w.computeWallMs + r.runMs);
    this.publishCompute(w);
    const waitMs = Math.max(0, r.startedEpochMs - submittedEpochMs);
    const h = this.byClass[cls];
    h.queueWait.record(Math.max(1, Math.round(waitMs * 1000)));
    h.run.record(Math.max(1, Math.round(r.runMs * 1000)));
    h.cpu.record(Math.max(1, Math.round(r.cpuMs * 1000)));
    this.metrics.taskQueueWait.observe({ class: cls }, waitMs / 1000);
    this.metrics.taskRun.observe({ class: cls }, r.runMs / 1000);
    this.metrics.taskCpu.observe({ class: cls }, r.cpuMs / 1000);
  }

  /** A hint or analysis task gave its worker up to a bot move; its CPU so far is spent again later. */
  recordPreemption(wastedCpuMs: number): void {
    this.preemptions++;
    this.wastedCpuMs += wastedCpuMs;
    this.metrics.preemptions.inc();
    this.metrics.preemptedCpu.inc(wastedCpuMs / 1000);
  }

  /** Cancel flag set → the hint or analysis task handed its worker back, ms. */
  recordYield(ms: number): void {
    this.yieldMs.record(Math.max(1, Math.round(ms * 1000)));
    this.metrics.yieldTime.observe(ms / 1000);
  }

  classes(workers: number, queued: Record<TaskClass, number>): ClassReport {
    const one = (cls: TaskClass) => ({ queued: queued[cls], utilization: this.busy.utilization(workers, cls), ...this.byClass[cls].report() });
    return {
      interactive: one('interactive'),
      hint: one('hint'),
      analysis: one('analysis'),
      preemption: { count: this.preemptions, wastedCpuMs: round(this.wastedCpuMs), yieldMs: quantiles(this.yieldMs) },
    };
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

  /** Bot searches (the interactive class): what the dashboard and benchmarks have always read. */
  tasks(): { queueWaitMs: Quantiles; runMs: Quantiles; cpuMs: Quantiles } {
    return this.byClass.interactive.report();
  }

  /** A worker's start-up gauges (once per worker), then its compute ones. */
  private publishWorker(w: WorkerStats): void {
    const thread = String(w.threadId);
    this.metrics.workerOnline.set({ thread }, w.onlineMs / 1000);
    if (w.warmMs !== null) this.metrics.workerWarm.set({ thread }, w.warmMs / 1000);
    this.metrics.workerSpawnCpu.set({ thread }, w.spawnCpuMs / 1000);
    this.metrics.spawnCpuTotal.set(this.totals().spawnCpuMs / 1000);
    this.publishCompute(w);
  }

  /** Per task: only what a task changes (the start-up gauges stay as they were). */
  private publishCompute(w: WorkerStats): void {
    this.metrics.workerComputeCpu.set({ thread: String(w.threadId) }, w.computeCpuMs / 1000);
    const t = this.totals();
    this.metrics.computeCpuTotal.set(t.computeCpuMs / 1000);
    if (t.ratio !== null) this.metrics.spawnComputeRatio.set(t.ratio);
  }
}
