// The fastify app factory: everything but `listen`. Tests build it with app.inject or listen on
// port 0; server/main.ts adds the port and the signals.
//
// Each service is a plugin (server/plugins/) that decorates the app with what it owns, declares
// what it needs, and registers its own close steps. fastify runs preClose hooks in registration
// order and onClose hooks in reverse, so this order is also the shutdown's: refuse new work, drop
// queued analyses, let bot moves in flight be stored, let a cluster member's games go, close the
// sockets with 1001 (ws/plugin.ts), then close the games, the pool, the store and the metrics.

import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { type Config, shutdownBudgetMs } from './config.ts';
import { playerRoutes } from './http/players.ts';
import { analysisRoutes } from './http/analysis.ts';
import { clientRoutes } from './http/client.ts';
import { clientErrorHandler, onRouterError } from './http/errors.ts';
import { gameRoutes } from './http/games.ts';
import { opsRoutes } from './http/ops.ts';
import { sessionPlugin } from './http/session.ts';
import { profileRoutes } from './http/profiles.ts';
import { pushRoutes } from './http/push.ts';
import { ratingRoutes } from './http/ratings.ts';
import { httpSetup } from './http/setup.ts';
import { buildValidator } from './http/validation.ts';
import { createLogger } from './log.ts';
import { playersPlugin } from './plugins/players.ts';
import { ratingsPlugin } from './plugins/ratings.ts';
import { analysisPlugin } from './plugins/analysis.ts';
import { botSchedulerPlugin } from './plugins/bot-scheduler.ts';
import { configPlugin } from './plugins/config.ts';
import { connectionsPlugin } from './plugins/connections.ts';
import { directoryPlugin } from './plugins/directory.ts';
import { gamesPlugin } from './plugins/games.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { poolPlugin } from './plugins/pool.ts';
import { pushPlugin } from './plugins/push.ts';
import { ratedAnalysesPlugin } from './plugins/rated-analyses.ts';
import { readinessPlugin } from './plugins/readiness.ts';
import { type Backend, storePlugin } from './plugins/store.ts';
import { wsRoutes } from './ws/plugin.ts';

export interface BuildOptions {
  logger?: Logger;
  /** The database's stores, opened by the caller (tests); else opened from the configuration. */
  backend?: Backend;
}

/** fastify's default time for a plugin to load (and, at close, for each preClose hook). */
const FASTIFY_PLUGIN_TIMEOUT_MS = 10_000;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger ?? createLogger(config);
  // Probes and scrapes are not worth a log line each.
  const quiet = new Set(['/healthz', '/readyz', '/metrics', '/api/pool']);
  const logController = new LogController({ disableRequestLogging: (request) => quiet.has(request.url.split('?')[0]) });
  // return503OnClosing off: the readiness plugin answers in the documented error shape instead.
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 16 * 1024,
    logController,
    clientErrorHandler,
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors: onRouterError,
    // fastify holds each preClose hook to its plugin timeout (10 s by default) and, past it, fails
    // the close and skips the later hooks. The games' drain and the sockets' close may each wait
    // the whole shutdown grace: only the shutdown's own budget (server/main.ts) may cut them short.
    pluginTimeout: Math.max(FASTIFY_PLUGIN_TIMEOUT_MS, shutdownBudgetMs(config)),
  });

  try {
    await app.register(configPlugin, { config });
    await app.register(readinessPlugin);
    await app.register(metricsPlugin);
    await app.register(storePlugin, { backend: options.backend });
    await app.register(poolPlugin);
    await app.register(botSchedulerPlugin);
    await app.register(analysisPlugin);
    await app.register(gamesPlugin);
    await app.register(playersPlugin);
    await app.register(ratingsPlugin);
    await app.register(pushPlugin);
    await app.register(ratedAnalysesPlugin);
    await app.register(directoryPlugin);
    await app.register(connectionsPlugin);
  } catch (e) {
    // A service that cannot start (the database, Redis): those already up are closed.
    await app.close().catch(() => {});
    throw e;
  }

  await app.register(httpSetup);
  await app.register(opsRoutes);
  await app.register(sessionPlugin);
  await app.register(playerRoutes);
  await app.register(pushRoutes);
  await app.register(gameRoutes);
  await app.register(analysisRoutes);
  await app.register(profileRoutes);
  await app.register(ratingRoutes);
  await app.register(clientRoutes);
  // Last: its preClose (sockets closed with 1001) follows the services' (games saved first).
  await app.register(wsRoutes);
  return app;
}
