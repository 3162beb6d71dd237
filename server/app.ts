// The fastify app factory: everything but `listen`. Tests build it with app.inject or listen on
// port 0; server/main.ts adds the port and the signals.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { BotScheduler } from './bot-scheduler.ts';
import { PoolHints } from './hints.ts';
import { AnalysisService } from './analysis/service.ts';
import { analysisRoutes } from './http/analysis.ts';
import type { Config } from './config.ts';
import { GameService } from './games/service.ts';
import type { GameStore } from './games/store.ts';
import { SqliteStore } from './games/sqlite-store.ts';
import { StoreOpenError } from './games/store-common.ts';
import { PostgresStore } from './games/postgres-store.ts';
import { Leases } from './cluster/leases.ts';
import { clientErrorHandler, installErrorHandling, onRouterError, sendError } from './http/errors.ts';
import { buildValidator } from './http/validation.ts';
import { CodedError } from './errors.ts';
import { clientRoutes } from './http/client.ts';
import { gameRoutes } from './http/games.ts';
import { opsRoutes } from './http/ops.ts';
import { createLogger } from './log.ts';
import { Metrics } from './metrics.ts';
import { BotPool } from './pool/pool.ts';
import { decidePoolSize } from './pool/sizing.ts';
import { SHED_AT } from './pool/load-policy.ts';
import { Connection } from './ws/connection.ts';
import { Relay } from './cluster/relay.ts';
import { PROTOCOL_VERSION } from './ws/protocol.ts';
import { connectionOptions, wsRoutes } from './ws/plugin.ts';

export interface Tessera {
  config: Config;
  metrics: Metrics;
  pool: BotPool;
  scheduler: BotScheduler;
  games: GameService;
  analysis: AnalysisService;
  store: GameStore;
  /** In a cluster (TESSERA_DATABASE_URL): this instance's game leases. */
  leases: Leases | null;
  /** With TESSERA_REDIS_URL: connections for games owned elsewhere are relayed there. */
  relay: Relay | null;
  /** In a cluster: this instance's id (named in welcomes and seat answers; `?instance=` routes to it). */
  instance: string | null;
  connections: Set<Connection>;
  /** Resolves when every worker is warm; rejects (PoolStartError) if the pool cannot start. */
  poolStarted: Promise<void>;
  closing: boolean;
  notReadyReason(): string | null;
  socketCount(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    tessera: Tessera;
  }
}

export interface BuildOptions {
  logger?: Logger;
  store?: GameStore;
}

const PROBES = new Set(['/healthz', '/readyz']);

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? createLogger(config);
  // Probes and scrapes are not worth a log line each.
  const quiet = new Set(['/healthz', '/readyz', '/metrics', '/api/pool']);
  const logController = new LogController({ disableRequestLogging: (request) => quiet.has(request.url.split('?')[0]) });
  // return503OnClosing off: our onRequest hook answers in the documented error shape instead.
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 16 * 1024,
    logController,
    clientErrorHandler,
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors: onRouterError,
  });
  const metrics = new Metrics();
  const sizing = decidePoolSize({ setting: config.botWorkers, reservedCores: config.reservedCores, cgroupRoot: config.cgroupRoot });
  const pool = new BotPool({
    sizing,
    maxQueue: config.maxQueue,
    workerFile: config.workerFile,
    warmupLevel: config.warmupLevel,
    warmupTimeoutMs: config.warmupTimeoutMs,
    logger: logger.child({ component: 'pool' }),
    metrics,
  });
  const scheduler = new BotScheduler({ pool, metrics, deadlineMs: config.botDeadlineMs, logger });
  // Embedded by default: one SQLite file under the data directory (":memory:" keeps nothing).
  const dbPath = config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'tessera.db');
  // Several instances: PostgreSQL, each unfinished game owned by one of them (cluster/leases.ts).
  const store =
    options.store ??
    (config.databaseUrl
      ? await PostgresStore.open({ url: config.databaseUrl, instance: config.instanceId ?? `${hostname()}-${randomBytes(3).toString('hex')}`, leaseMs: config.leaseSeconds * 1000 })
      : new SqliteStore({ path: dbPath }));
  const cluster = store instanceof PostgresStore && store.instance ? store : null;
  let poolError: Error | null = null;

  const tessera: Tessera = {
    config,
    metrics,
    pool,
    scheduler,
    store,
    leases: null,
    relay: null,
    instance: cluster?.instance ?? null,
    games: null as unknown as GameService,
    analysis: new AnalysisService({ pool, store, log: logger.child({ component: 'analysis' }), maxJobs: config.maxAnalyses }),
    connections: new Set(),
    poolStarted: Promise.resolve(),
    closing: false,
    notReadyReason() {
      if (tessera.closing) return 'shutting down';
      if (poolError) return `bot pool failed: ${poolError.message}`;
      if (!pool.ready) return 'bot pool warming up';
      if (pool.load >= SHED_AT) return `bot queue at ${pool.queueDepth} of ${pool.maxQueue}`;
      const storage = tessera.games.storageProblem();
      if (storage) return storage;
      return null;
    },
    socketCount: () => tessera.connections.size,
  };
  tessera.games = new GameService({
    store,
    bots: scheduler,
    hints: new PoolHints({ pool, metrics, budgetMs: config.botDeadlineMs, maxWaitMs: config.hintWaitMs }),
    log: logger,
    metrics,
    maxGames: config.maxGames,
    overloaded: () => tessera.notReadyReason(),
    expiry: config,
    finishedCache: config.finishedCache,
    ...(cluster ? { takeOver: (id: string) => cluster.claim(id), listOpen: (limit: number) => cluster.openListed(limit), setAside: (id: string) => cluster.setAside(id) } : {}),
  });
  if (cluster) {
    tessera.leases = new Leases({ store: cluster, games: tessera.games, log: logger.child({ component: 'leases' }), spareCapacity: () => config.maxGames - tessera.games.activeCount() });
    logger.info({ instance: cluster.instance, leaseSeconds: config.leaseSeconds, relay: config.redisUrl !== null }, 'cluster member: games in PostgreSQL, owned by lease');
    if (config.redisUrl) {
      tessera.relay = new Relay({
        url: config.redisUrl,
        metrics,
        store: cluster,
        games: tessera.games,
        log: logger.child({ component: 'relay' }),
        accept: (socket, log) => new Connection(socket, connectionOptions(tessera, log)),
        maxBufferedBytes: config.maxBufferedBytes,
      });
      try {
        await tessera.relay.start();
      } catch (e) {
        await tessera.relay.stop();
        await store.close();
        throw new StoreOpenError(`cannot reach Redis at TESSERA_REDIS_URL: ${(e as Error).message}`, { cause: e });
      }
    }
  }
  app.decorate('tessera', tessera);

  // Unfinished games come back at once (people can reconnect); their bots move once the pool is warm.
  // In a cluster, games come through their leases: those whose owner is gone are taken over.
  try {
    if (tessera.leases) tessera.leases.start();
    else await tessera.games.restore();
  } catch (e) {
    // A file that opened but cannot be read through (a damaged database).
    if ((e as NodeJS.ErrnoException).code !== 'ERR_SQLITE_ERROR') throw e;
    await store.close();
    throw new StoreOpenError(`cannot use the database ${dbPath}: ${(e as Error).message}`, { cause: e });
  }
  tessera.poolStarted = pool.start();
  tessera.poolStarted.then(
    () => tessera.games.resumeBots(),
    () => {},
  );
  tessera.poolStarted.catch((e: Error) => {
    poolError = e;
    logger.fatal({ err: e }, `bot pool failed to start: ${e.message}`);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Tessera game server', version: `1.0.0 (WebSocket protocol v${PROTOCOL_VERSION})`, description: 'HTTP API; play happens over the WebSocket at /ws (docs/PROTOCOL.md).' },
      tags: [{ name: 'games' }, { name: 'play' }, { name: 'ops' }],
    },
  });
  installErrorHandling(app);
  // Per-route limits only (the routes that create state say theirs); probes and reads are free.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new CodedError('too_many_requests', `at most ${context.max} of these a minute from one address; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
  // The probes keep answering in their own shape (/readyz: 503 "shutting down") for load balancers.
  app.addHook('onRequest', async (request, reply) => {
    if (tessera.closing && !PROBES.has(request.url)) return sendError(reply.header('connection', 'close'), 'shutting_down', 'the server is shutting down; retry in a few seconds', 5);
  });

  // Shutdown: refuse new work, let bot searches in flight finish and be stored, then (after the
  // sockets close with 1001, see ws/plugin.ts) stop the pool.
  app.addHook('preClose', async () => {
    tessera.closing = true;
    tessera.analysis.close();
    await tessera.games.drain(config.shutdownGraceMs);
    // Writes are done: the other instances may take this one's games over at once.
    await tessera.leases?.stop();
    await tessera.relay?.stop();
    scheduler.close();
  });
  app.addHook('onClose', async () => {
    tessera.games.close();
    await tessera.poolStarted.catch(() => {});
    await pool.close();
    await store.close();
    metrics.close();
  });

  await app.register(opsRoutes);
  await app.register(gameRoutes);
  await app.register(analysisRoutes);
  await app.register(wsRoutes);
  await app.register(clientRoutes);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
