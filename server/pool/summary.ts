// Shapes of the pool summary served at /api/pool, free of Node imports so the dashboard
// (browser build) reads the same types.

/** How the pool size was decided (server/pool/sizing.ts). */
export interface PoolSizing {
  workers: number;
  reason: string;
  availableParallelism: number;
  quotaCpus: number | null;
  quotaSource: string;
  usableCores: number;
  reservedCores: number;
  setting: number | null;
}

/** Event-loop delay and utilisation over the last `seconds` (server/loop-monitor.ts). */
export interface LoopWindow {
  delayMs: { p50: number; p99: number; max: number; mean: number };
  utilization: number;
  seconds: number;
}

export interface WorkerStats {
  threadId: number;
  /** Replaced a worker after the pool was ready. */
  respawn: boolean;
  alive: boolean;
  /** Pool creation (or, for a respawn, thread start) → module loaded, ms. */
  onlineMs: number;
  /** Pool creation (or, for a respawn, thread start) → warm-up done, ms; null if it never warmed. */
  warmMs: number | null;
  /** Thread CPU spent loading (and warming up), ms. */
  spawnCpuMs: number;
  tasks: number;
  computeCpuMs: number;
  computeWallMs: number;
}

export interface Quantiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** The default window (last 5 s) plus the last second and the last minute. */
export type EventLoopReport = LoopWindow & { resolutionMs: number; lastSecond: LoopWindow; lastMinute: LoopWindow };

/** BotPool.summary(). */
export interface PoolSummary {
  ready: boolean;
  size: number;
  sizing: PoolSizing;
  alive: number;
  warmupMs: number;
  queue: { depth: number; bound: number; inFlight: number };
  utilization: number;
  respawns: number;
  workers: WorkerStats[];
  tasks: { queueWaitMs: Quantiles; runMs: Quantiles; cpuMs: Quantiles } | null;
  spawnCpuMs: number;
  computeCpuMs: number;
  spawnToComputeCpuRatio: number | null;
}

/** GET /api/pool: the pool, the event loop, the counters and the server's load. */
export interface PoolReport extends PoolSummary {
  eventLoop: EventLoopReport;
  counters: { respawns: number; degraded: Record<string, number>; shed: number; deadlineHits: number; searchFailures: Record<string, number>; botMoves: Record<string, number> };
  games: number;
  sockets: number;
}
