// GET /api/pool, defined once: the route serialises and documents with these schemas, and the
// pool, the loop monitor and the dashboard (browser build) use the types derived from them.

import Type, { type Static } from 'typebox';

const Int = Type.Integer();
const Num = Type.Number();
const NullableNum = Type.Union([Type.Number(), Type.Null()]);
const CountsByLabel = Type.Record(Type.String(), Type.Number());

/** How the pool size was decided (server/pool/sizing.ts). */
export const PoolSizing = Type.Object(
  {
    workers: Int,
    reason: Type.String(),
    availableParallelism: Int,
    quotaCpus: NullableNum,
    quotaSource: Type.String(),
    usableCores: Int,
    reservedCores: Int,
    setting: Type.Union([Type.Integer(), Type.Null()]),
  },
  { description: 'how the pool size was decided, and from what' },
);

/** Event-loop delay and utilisation over the last `seconds` (server/loop-monitor.ts). */
export const LoopWindow = Type.Object({
  delayMs: Type.Object({ p50: Num, p99: Num, max: Num, mean: Num }),
  utilization: Num,
  seconds: Num,
});

export const WorkerStats = Type.Object({
  threadId: Int,
  respawn: Type.Boolean({ description: 'replaced a worker after the pool was ready' }),
  alive: Type.Boolean(),
  onlineMs: Type.Number({ description: 'pool creation (or, for a respawn, thread start) → module loaded, ms' }),
  warmMs: Type.Union([Type.Number(), Type.Null()], { description: 'pool creation (or thread start) → warm-up done, ms; null if it never warmed' }),
  spawnCpuMs: Type.Number({ description: 'thread CPU spent loading and warming up, ms' }),
  nice: Type.Union([Int, Type.Null()], { description: "the OS nice value the thread runs at, above the event loop's so the loop preempts it; null where a thread has none of its own (not Linux)" }),
  tasks: Int,
  computeCpuMs: Num,
  computeWallMs: Num,
});

export const Quantiles = Type.Object({ count: Int, p50: Num, p90: Num, p99: Num, max: Num, mean: Num });

export const TaskQuantiles = Type.Object({ queueWaitMs: Quantiles, runMs: Quantiles, cpuMs: Quantiles });

const ClassStats = Type.Object({
  queued: Int,
  utilization: Type.Number({ description: 'worker time busy with this class over the last 5 s ÷ (workers × 5 s)' }),
  ...TaskQuantiles.properties,
});

/** Bot moves (interactive, first), hints a person asked for, then game analysis; hints and
 * analysis use idle workers only and yield to bot moves. */
export type TaskClass = 'interactive' | 'hint' | 'analysis';

/** The three classes of pool work side by side (server/pool/pool.ts). */
export const ClassReport = Type.Object(
  {
    interactive: ClassStats,
    hint: ClassStats,
    analysis: ClassStats,
    preemption: Type.Object({
      count: Type.Integer({ description: 'hint and analysis tasks that yielded their worker to a bot move' }),
      wastedCpuMs: Type.Number({ description: 'their CPU so far, spent again when they rerun' }),
      yieldMs: Quantiles,
    }),
  },
  { description: 'bot moves (interactive, first), hints a person asked for, then game analysis (hints and analysis on idle workers only, yielding to bot moves)' },
);

/** The default window (last 5 s) plus the last second and the last minute. */
export const EventLoopReport = Type.Object(
  { ...LoopWindow.properties, resolutionMs: Num, lastSecond: LoopWindow, lastMinute: LoopWindow },
  { description: 'main-loop delay and utilisation over the last 5 s' },
);

/** BotPool.summary(). */
export const PoolSummary = Type.Object({
  ready: Type.Boolean(),
  size: Int,
  sizing: PoolSizing,
  alive: Int,
  warmupMs: Num,
  queue: Type.Object({ depth: Int, bound: Int, inFlight: Int }),
  utilization: Type.Number({ description: 'worker time busy (every class) over the last 5 s ÷ (workers × 5 s)' }),
  classes: Type.Union([ClassReport, Type.Null()]),
  predictedWaitMs: Type.Number({ description: 'how long a bot search submitted now would wait for a worker' }),
  respawns: Int,
  workers: Type.Array(WorkerStats),
  tasks: Type.Union([TaskQuantiles, Type.Null()]),
  spawnCpuMs: Num,
  computeCpuMs: Num,
  spawnToComputeCpuRatio: NullableNum,
});

/** GET /api/pool: the pool, the event loop, the counters and the server's load. */
export const PoolReport = Type.Object(
  {
    ...PoolSummary.properties,
    eventLoop: EventLoopReport,
    counters: Type.Object({ respawns: Int, degraded: CountsByLabel, shed: Int, deadlineHits: Int, searchFailures: CountsByLabel, botMoves: CountsByLabel }),
    games: Int,
    sockets: Int,
  },
  { description: 'the bot pool: sizing, per-worker spawn cost against compute, task histograms, event loop, counters' },
);

export type PoolSizing = Static<typeof PoolSizing>;
export type LoopWindow = Static<typeof LoopWindow>;
export type WorkerStats = Static<typeof WorkerStats>;
export type Quantiles = Static<typeof Quantiles>;
export type ClassReport = Static<typeof ClassReport>;
export type EventLoopReport = Static<typeof EventLoopReport>;
export type PoolSummary = Static<typeof PoolSummary>;
export type PoolReport = Static<typeof PoolReport>;
