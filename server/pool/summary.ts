// Shapes of the pool summary served at /api/pool, free of Node imports so the dashboard
// (browser build) reads the same types.

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
