// Each service is a fastify plugin: it decorates the app with what it owns, says what it needs
// (a plugin registered without it is refused at boot), and registers its own close steps, which
// fastify runs in the documented shutdown order. A service that cannot start closes those up.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { buildApp } from '../server/app.ts';
import { StoreOpenError } from '../server/storage/errors.ts';
import type { GamePage } from '../server/games/store.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { memoryBackend } from '../server/storage/memory/backend.ts';
import { gameRoutes } from '../server/http/games.ts';
import { gamesPlugin } from '../server/plugins/games.ts';
import { LocalDirectory } from '../server/directory/local.ts';
import { testConfig } from './server-helpers.ts';

const SERVICES = ['config', 'readiness', 'metrics', 'store', 'pool', 'botScheduler', 'analysis', 'games', 'directory', 'connections'];

test('every service is a decoration of its own; no bag of services', async () => {
  const app = await buildApp(testConfig());
  try {
    for (const name of SERVICES) assert.ok(app.hasDecorator(name), `app.${name}`);
    assert.equal(app.hasDecorator('tessera'), false);
    assert.ok(app.directory instanceof LocalDirectory, 'one instance: every game is played here');
  } finally {
    await app.close();
  }
});

test('a service or routes registered without the services they need are refused at boot, naming them', async () => {
  for (const [plugin, missing] of [
    [gamesPlugin, /The dependency 'config' of plugin 'games' is not registered/],
    [gameRoutes, /The dependency 'config' of plugin 'game-routes' is not registered/],
  ] as const) {
    const app = Fastify();
    await assert.rejects(async () => app.register(plugin), missing);
    await app.close().catch(() => {});
  }
});

test('shutdown: new work refused, queued analyses dropped, games drained, then games, bots, pool, store and metrics closed in that order', async () => {
  const steps: string[] = [];
  const store = new MemoryStore();
  const app = await buildApp(testConfig(), { backend: memoryBackend(store) });
  await app.ready();
  await app.poolStarted;
  const spy = <T extends object>(target: T, method: keyof T & string, step: string) => {
    const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
    (target as Record<string, unknown>)[method] = (...args: unknown[]) => {
      steps.push(step);
      return original(...args);
    };
  };
  spy(app.analysis, 'close', 'analysis.close');
  spy(app.games, 'drain', 'games.drain');
  spy(app.games, 'close', 'games.close');
  spy(app.botScheduler, 'close', 'botScheduler.close');
  spy(app.pool, 'close', 'pool.close');
  spy(store, 'close', 'store.close');
  spy(app.metrics, 'close', 'metrics.close');
  let refusing: string | null = null;
  const drain = app.games.drain.bind(app.games);
  app.games.drain = async (graceMs: number) => {
    refusing = app.readiness.problem();
    return drain(graceMs);
  };
  await app.close();
  assert.equal(refusing, 'shutting down', 'new work is refused before the games drain');
  assert.deepEqual(steps, ['analysis.close', 'games.drain', 'games.close', 'botScheduler.close', 'pool.close', 'store.close', 'metrics.close']);
});

test('a service that cannot start fails the boot and closes the services already up', async () => {
  // A database that opened but cannot be read through (what a damaged SQLite file does).
  class Unreadable extends MemoryStore {
    closed = false;
    override async list(): Promise<GamePage> {
      throw Object.assign(new Error('database disk image is malformed'), { code: 'ERR_SQLITE_ERROR' });
    }
    override async close(): Promise<void> {
      this.closed = true;
    }
  }
  const store = new Unreadable();
  await assert.rejects(
    () => buildApp(testConfig(), { backend: memoryBackend(store) }),
    (e: Error) => e instanceof StoreOpenError && /cannot use the database .*malformed/.test(e.message),
  );
  assert.equal(store.closed, true);
});
