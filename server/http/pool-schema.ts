// JSON schema of GET /api/pool, mirroring the PoolReport type (server/pool/summary.ts): it
// documents the route in /openapi.json, and fastify serialises with it (a field missing here
// would be dropped from the answer, and the route test checks the answer field by field).

const number = { type: 'number' } as const;
const integer = { type: 'integer' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

/** An object whose listed properties are all required. */
function object(properties: Record<string, unknown>, description?: string) {
  return { type: 'object', ...(description ? { description } : {}), properties, required: Object.keys(properties) } as const;
}

const countsByLabel = { type: 'object', additionalProperties: number } as const;

const sizing = object(
  {
    workers: integer,
    reason: { type: 'string' },
    availableParallelism: integer,
    quotaCpus: nullableNumber,
    quotaSource: { type: 'string' },
    usableCores: integer,
    reservedCores: integer,
    setting: { type: ['integer', 'null'] },
  },
  'how the pool size was decided, and from what',
);

const worker = object({
  threadId: integer,
  respawn: { type: 'boolean' },
  alive: { type: 'boolean' },
  onlineMs: number,
  warmMs: nullableNumber,
  spawnCpuMs: number,
  tasks: integer,
  computeCpuMs: number,
  computeWallMs: number,
});

const quantiles = object({ count: integer, p50: number, p90: number, p99: number, max: number, mean: number });

const loopWindow = {
  delayMs: object({ p50: number, p99: number, max: number, mean: number }),
  utilization: number,
  seconds: number,
};

export const poolReportSchema = object(
  {
    ready: { type: 'boolean' },
    size: integer,
    sizing,
    alive: integer,
    warmupMs: number,
    queue: object({ depth: integer, bound: integer, inFlight: integer }),
    utilization: number,
    respawns: integer,
    workers: { type: 'array', items: worker },
    tasks: { ...object({ queueWaitMs: quantiles, runMs: quantiles, cpuMs: quantiles }), type: ['object', 'null'] },
    spawnCpuMs: number,
    computeCpuMs: number,
    spawnToComputeCpuRatio: nullableNumber,
    eventLoop: object({ ...loopWindow, resolutionMs: number, lastSecond: object(loopWindow), lastMinute: object(loopWindow) }, 'main-loop delay and utilisation over the last 5 s'),
    counters: object({ respawns: integer, degraded: countsByLabel, shed: integer, deadlineHits: integer, searchFailures: countsByLabel, botMoves: countsByLabel }),
    games: integer,
    sockets: integer,
  },
  'the bot pool: sizing, per-worker spawn cost against compute, task histograms, event loop, counters',
);
