// `npm run games` end to end: a child process finds, exports and removes damaged games in the
// server's database (SQLite file, or PostgreSQL by TESSERA_DATABASE_URL), the server running.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type PrivatePostgres, startPostgres } from '../support/postgres.ts';
import { needing, POSTGRES } from './support/needs.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import type { GameStore } from '../server/games/store.ts';
import { get, injectServer, twoPeopleSetup } from './server-helpers.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';

// Without PostgreSQL installed, its PostgreSQL tests are skipped (the others run); under CI=true they fail.
const { test, before, after, skip: noPostgres } = needing([POSTGRES], (name) => name.startsWith('games cli on PostgreSQL'));

const cli = fileURLToPath(new URL('../server/cli/games.ts', import.meta.url));
const run = (args: string[], env: Record<string, string> = {}) => {
  const { TESSERA_DATABASE_URL: _url, TESSERA_DATA_DIR: _dir, ...rest } = process.env;
  const out = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...rest, ...env } });
  return {
    status: out.status,
    lines: out.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr: out.stderr,
  };
};

async function twoGames(store: GameStore): Promise<void> {
  for (const id of ['good', 'bad']) await store.create(twoPeopleSetup(id), [null, null]);
}

test('games cli on SQLite: lists, exports and removes a damaged game; healthy ones only with --force; a running server then forgets it', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
  const path = join(dataDir, 'tessera.db');
  const store = new SqliteStore({ path });
  await twoGames(store);
  await store.close();
  const db = new DatabaseSync(path);
  db.exec(`UPDATE games SET holders = '[nul' WHERE id = 'bad'`);
  db.close();
  const env = { TESSERA_DATA_DIR: dataDir };

  const server = await injectServer({ dataDir }, false);
  try {
    // The server's own store checkpoints on its thread (the CLI's, a default store, does not).
    const serverDb = (server.app.store as unknown as { db: DatabaseSync }).db;
    assert.equal(serverDb.prepare('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint, 0);
    assert.equal((await get(server.base, '/api/games/bad')).body.code, 'game_damaged');
    const listed = run(['damaged'], env);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(
      listed.lines.map((l) => l.id),
      ['bad'],
    );
    assert.match(listed.lines[0].damaged, /JSON/);

    const exported = run(['export', 'bad'], env);
    assert.equal(exported.status, 0);
    assert.equal(exported.lines[0].stored.holders, '[nul', 'the damaged column as stored');
    assert.equal(JSON.parse(exported.lines[0].stored.setup).id, 'bad');

    const refused = run(['remove', 'good'], env);
    assert.deepEqual([refused.status, refused.lines[0].error], [1, 'game good is not damaged: it is removed only with --force']);
    assert.equal(run(['remove', 'nope', '--db', path]).lines[0].error, 'no game nope');
    const removed = run(['remove', 'bad'], env);
    assert.deepEqual([removed.status, removed.lines[0].removed], [0, 'bad']);
    assert.deepEqual(run(['damaged'], env).lines, []);

    // The running server: the id is unknown now, and no longer counted.
    const after = await get(server.base, '/api/games/bad');
    assert.deepEqual([after.status, after.body.code], [404, 'unknown_game']);
    assert.match((await get(server.base, '/metrics')).body, /^tessera_games_damaged 0$/m);
    assert.equal((await get(server.base, '/api/games/good')).status, 200);
  } finally {
    await server.app.close();
  }
  assert.equal(run(['damaged'], { TESSERA_DATA_DIR: join(dataDir, 'missing') }).lines[0].error.startsWith('no database at'), true);
  assert.equal(run([]).status, 2);
});

test('games cli on SQLite: delete-player deletes a player as DELETE /api/me does', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
  const { games: store, players } = sqliteBackend({ path: join(dataDir, 'tessera.db') });
  await players.createPlayer({ id: 'p_leaving', name: 'Leaving', createdAt: new Date().toISOString() }, { hash: 'h', playerId: 'p_leaving', expiresAt: Date.now() + 60_000 });
  await store.create(twoPeopleSetup('g'), [{ name: 'Leaving', tokenHash: null, playerId: 'p_leaving' }, null]);
  await store.close();
  const env = { TESSERA_DATA_DIR: dataDir };
  assert.deepEqual(run(['delete-player', 'p_leaving'], env).lines, [{ deletedPlayer: 'p_leaving' }]);
  assert.deepEqual(run(['delete-player', 'p_leaving'], env), { status: 1, lines: [{ error: 'no player p_leaving' }], stderr: '' });
  const reopened = sqliteBackend({ path: join(dataDir, 'tessera.db') });
  assert.deepEqual((await reopened.games.get('g'))?.holders[0], { name: 'deleted player', tokenHash: null });
  assert.equal(await reopened.players.playerBySession('h', Date.now()), undefined);
  await reopened.close();
});

let postgres: PrivatePostgres;
before(async () => {
  if (!noPostgres) postgres = await startPostgres();
});
after(() => postgres?.stop());

test('games cli on PostgreSQL (TESSERA_DATABASE_URL): lists, exports and removes a damaged game', { timeout: 60_000 }, async () => {
  const url = await postgres.database('cli');
  const store = await PostgresStore.connect({ url });
  await twoGames(store);
  await store.appendMoves('bad', [{ tile: 'V', x: 40, y: 40, rotation: 0, meeple: null }], null);
  await store.close();
  const env = { TESSERA_DATABASE_URL: url };
  const listed = run(['damaged'], env);
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(
    listed.lines.map((l) => [l.id, /does not replay/.test(l.damaged)]),
    [['bad', true]],
  );
  assert.deepEqual(run(['export', 'bad'], env).lines[0].stored.moves, [{ seq: 0, move: { tile: 'V', x: 40, y: 40, rotation: 0, meeple: null } }]);
  assert.equal(run(['remove', 'bad'], env).lines[0].removed, 'bad');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    assert.deepEqual((await db.query('SELECT id FROM games')).rows, [{ id: 'good' }]);
    assert.deepEqual((await db.query("SELECT count(*)::int AS n FROM moves WHERE game_id = 'bad'")).rows, [{ n: 0 }]);
  } finally {
    await db.end();
  }
});
