// `npm start`: configuration from the environment, listen, then wait for the warm pool.
// SIGTERM/SIGINT close gracefully (sockets 1001, in-flight bot moves stored, pool closed), exit 0.

import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig, shutdownBudgetMs } from './config.ts';
import { StoreOpenError } from './storage/errors.ts';

/** An operator's mistake, not a crash: one line on stderr that says what to change, exit 2. */
function refuse(message: string): never {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    refuse(e.message);
  }
  let app: FastifyInstance;
  try {
    app = await buildApp(config);
  } catch (e) {
    // The database cannot be opened, written or read (damaged, not a database, read-only).
    if (!(e instanceof StoreOpenError)) throw e;
    if (config.databaseUrl) refuse(`${e.message} (check TESSERA_DATABASE_URL${config.redisUrl ? ' and TESSERA_REDIS_URL' : ''}: the servers must be reachable, the database and user must exist)`);
    refuse(`${e.message} (check that TESSERA_DATA_DIR=${config.dataDir} is writable; move a damaged file away to start empty, or restore it from a backup)`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, shutdownBudgetMs(config));
    force.unref();
    app.close().then(
      () => {
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (e: Error) => {
        app.log.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (e as NodeJS.ErrnoException).code !== 'EACCES') throw e;
    await app.close().catch(() => {});
    refuse(
      `cannot listen on ${config.host}:${config.port}: ${(e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the port is already in use (stop the other server or set PORT)' : 'permission denied (use a port above 1023 or set HOST)'}`,
    );
  }
  try {
    await app.poolStarted;
  } catch {
    // Already logged with its cause; a server whose bots cannot move must not run.
    await app.close().catch(() => {});
    process.exit(1);
  }
  app.log.info({ url: `http://${config.host}:${(app.server.address() as { port: number }).port}` }, 'tessera ready');
}

await main();
