// A failed write changes nothing: the real SQLite engine refusing writes (a full disk, a
// read-only file), the mover told `storage_unavailable`, /readyz and /metrics showing it, play
// resuming with nothing lost once writes work again; and data directories the server cannot use
// refused at boot with one clear line.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, chmodSync, truncateSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TestContext, test } from 'node:test';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import { sqliteBackendOver } from '../server/storage/sqlite/backend.ts';
import { saveAnalysis, setRematch, takeSeat, unfinishedGames } from '../server/games/store-operations.ts';
import { WatchedStore } from '../server/storage/watched/games.ts';
import { Metrics } from '../server/metrics.ts';
import { pino } from 'pino';
import { RematchTakenError, type StoredGame } from '../server/games/store.ts';
import { StorageError } from '../server/storage/errors.ts';
import { replayRecord } from '../bot-engine/record.ts';
import { recordOf } from '../server/games/records.ts';
import { Client, createGame, get, post, injectServer, twoPeopleSetup } from './server-helpers.ts';

const MAIN = fileURLToPath(new URL('../dist/server/main.js', import.meta.url));
const tempDir = () => mkdtempSync(join(tmpdir(), 'tessera-storage-'));

/** The store's own connection: the tests make the real engine refuse writes through it. */
const dbOf = (store: SqliteStore) => (store as unknown as { db: DatabaseSync }).db;
const readOnly = (store: SqliteStore, on: boolean) => dbOf(store).exec(`PRAGMA query_only = ${on ? 1 : 0}`);

const setup = twoPeopleSetup;

/** Readiness after writes work again: /readyz probes the store (at most once a second) and comes
 * back by itself within a few seconds. */
const readyAgain = (t: TestContext, base: Parameters<typeof get>[0]) => t.waitFor(async () => assert.equal((await get(base, '/readyz')).status, 200), { timeout: 3000, interval: 100 });

test('a full disk: the store keeps nothing of the write and reports SQLite’s own error', async () => {
  const store = new SqliteStore({ path: join(tempDir(), 'games.db') });
  await store.create(setup('g'), [null, null]);
  const db = dbOf(store);
  const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
  db.exec(`PRAGMA max_page_count = ${page_count}`);
  const many = Array.from({ length: 400 }, (_, i) => ({ tile: 'V', x: i, y: 1, rotation: 0, meeple: 'road'.repeat(20) }));
  await assert.rejects(
    () => store.appendMoves('g', many, null),
    (e: unknown) => e instanceof StorageError && /database or disk is full/.test(e.message) && !/cannot rollback/.test(e.message),
  );
  assert.equal(db.isTransaction, false);
  assert.equal((await store.get('g'))!.moves.length, 0);
  db.exec('PRAGMA max_page_count = 1000000');
  await store.appendMoves('g', many, null);
  assert.equal((await store.get('g'))!.moves.length, 400);
  await store.close();
});

test('a person’s move whose write fails changes nothing; play resumes when writes work', async (t) => {
  const path = join(tempDir(), 'games.db');
  const store = new SqliteStore({ path });
  const server = await injectServer({}, true, { backend: sqliteBackendOver(store) });
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }]);
    const a = await Client.join(server.ws, id, tokens.get(0));
    const b = await Client.join(server.ws, id, tokens.get(1));
    const view = (await a.latestState((f) => f.view.status === 'playing' && f.view.legal)).view;
    await b.latestState((f) => f.view.status === 'playing');
    const p = view.legal[0];
    const move = { type: 'move', id: 'm1', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } };

    readOnly(store, true);
    a.send(move);
    const refused = await a.next((f) => f.type === 'error');
    assert.deepEqual([refused.code, refused.ref], ['storage_unavailable', 'm1']);
    // Nothing changed: the summary, the other player's view, the store.
    const summary = (await get(server.base, `/api/games/${id}`)).body;
    assert.deepEqual([summary.turn, summary.currentSeat, summary.tilesLeft], [view.turn, 0, view.tilesLeft]);
    assert.equal(b.frames.filter((f) => f.type === 'state' && f.view.turn !== view.turn).length, 0);
    assert.equal((await store.get(id))!.moves.length, 0);
    const ready = await get(server.base, '/readyz');
    assert.equal(ready.status, 503);
    assert.match(ready.body.reason, /could not write/);
    const metrics = (await get(server.base, '/metrics')).body as string;
    assert.match(metrics, /tessera_store_writable 0/);
    assert.match(metrics, /tessera_store_write_failures_total\{op="moves"\} 1/);
    const create = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
    assert.deepEqual([create.status, create.body.code, create.headers.get('retry-after')], [503, 'storage_unavailable', '10']);

    readOnly(store, false);
    await readyAgain(t, server.base);
    a.send(move);
    const after = await b.latestState((f) => f.view.turn > view.turn);
    assert.equal(after.view.currentSeat, 1);
    assert.match((await get(server.base, '/metrics')).body, /tessera_store_writable 1/);
    a.close();
    b.close();
  } finally {
    await server.app.close();
  }
  // Everything acknowledged is in the file and replays.
  const reopened = new SqliteStore({ path });
  const games = (await unfinishedGames(reopened)) as StoredGame[];
  assert.equal(games.length, 1);
  assert.ok(games[0].moves.length >= 1);
  replayRecord(recordOf(games[0]));
  await reopened.close();
});

test('a bot’s move whose write fails: the bot does not advance, the server stays up, the move lands later', async (t) => {
  const store = new SqliteStore({ path: join(tempDir(), 'games.db') });
  const server = await injectServer({ botDeadlineMs: 1500 }, true, { backend: sqliteBackendOver(store) });
  try {
    // The bot moves first, with a search long enough to make the store refuse its write meanwhile.
    const { id, tokens } = await createGame(server.base, [{ kind: 'bot', level: 'expert' }, { kind: 'person' }]);
    readOnly(store, true);
    const person = await Client.join(server.ws, id, tokens.get(1));
    const failed = () => get(server.base, '/metrics').then((m) => /tessera_store_write_failures_total\{op="moves"\} [1-9]/.test(m.body));
    await t.waitFor(async () => assert.ok(await failed(), 'the bot’s write was refused'), { timeout: 4000, interval: 100 });
    assert.equal((await get(server.base, `/api/games/${id}`)).body.turn, 0, 'the bot did not advance');
    assert.equal((await store.get(id))!.moves.length, 0);
    readOnly(store, false);
    const moved = await person.latestState((f) => f.view.turn > 0 && f.view.currentSeat === 1, 10_000);
    assert.equal(moved.last.seat, 0);
    assert.equal((await store.get(id))!.moves.length, moved.view.turn);
    person.close();
  } finally {
    await server.app.close();
  }
});

/** Runs the real server on `dataDir`; resolves with its exit code and stderr. */
function boot(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const proc = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', TESSERA_DATA_DIR: dataDir, TESSERA_BOT_WORKERS: '1', TESSERA_WARMUP_LEVEL: 'random' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

function assertRefused(result: { code: number | null; stderr: string }, file: string, cause: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, result.stderr);
  assert.ok(lines[0].includes(file), lines[0]);
  assert.match(lines[0], cause);
  assert.match(lines[0], /TESSERA_DATA_DIR/);
}

test('data directories the server cannot use are refused at boot with one line', { timeout: 60_000 }, async () => {
  const noise = tempDir();
  writeFileSync(join(noise, 'tessera.db'), Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 251)));
  assertRefused(await boot(noise), join(noise, 'tessera.db'), /file is not a database/);

  const damaged = tempDir();
  const store = new SqliteStore({ path: join(damaged, 'tessera.db') });
  for (let i = 0; i < 300; i++) await store.create({ ...setup(`g${i}`), seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] }, [null, { name: 'bot', tokenHash: null }]);
  await store.close();
  truncateSync(join(damaged, 'tessera.db'), Math.floor(statSync(join(damaged, 'tessera.db')).size / 10));
  assertRefused(await boot(damaged), join(damaged, 'tessera.db'), /malformed/);

  // Read-only: a read-only mount as root (permissions do not stop root), else a read-only directory.
  const ro = join(tempDir(), 'ro');
  mkdirSync(ro);
  let mounted = false;
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', ro]);
    mounted = true;
  } else chmodSync(ro, 0o555);
  try {
    assertRefused(await boot(ro), join(ro, 'tessera.db'), /unable to open|readonly/);
  } finally {
    if (mounted) execFileSync('umount', [ro]);
  }
});

test('the watched store counts a failed write under what it was (a metadata change by its name, a document by its kind); a rule refusing a change is no store failure', async () => {
  const store = new SqliteStore({ path: join(tempDir(), 'games.db') });
  const metrics = new Metrics();
  const watched = new WatchedStore(store, metrics, pino({ level: 'silent' }));
  try {
    await watched.create(setup('w'), [null, null]);
    await setRematch(watched, 'w', 'r1');
    await assert.rejects(() => setRematch(watched, 'w', 'r2'), RematchTakenError);
    assert.equal(watched.failing(), null, 'a refused change leaves the store writable');
    readOnly(store, true);
    await assert.rejects(() => takeSeat(watched, 'w', 0, { name: 'Ann', tokenHash: null }), StorageError);
    await assert.rejects(() => saveAnalysis(watched, 'w', { createdAt: 'now' }), StorageError);
    const text = await metrics.render();
    assert.match(text, /tessera_store_write_failures_total\{op="take_seat"\} 1/);
    assert.match(text, /tessera_store_write_failures_total\{op="analysis"\} 1/);
    assert.doesNotMatch(text, /op="rematch"/);
    assert.match(text, /tessera_store_writable 0/);
  } finally {
    readOnly(store, false);
    metrics.close();
    await store.close();
  }
});

test('a player write that fails (starting a session) is known like a game write: 503, /readyz and /metrics, back by itself', async (t) => {
  const store = new SqliteStore({ path: join(tempDir(), 'games.db') });
  const server = await injectServer({}, false, { backend: sqliteBackendOver(store) });
  try {
    readOnly(store, true);
    const started = await post(server.base, '/api/session', { name: 'Disk Full' });
    assert.deepEqual([started.status, started.body.code], [503, 'storage_unavailable']);
    assert.equal((await get(server.base, '/readyz')).status, 503);
    assert.match((await get(server.base, '/metrics')).body as string, /tessera_store_write_failures_total\{op="create_player"\} 1/);
    readOnly(store, false);
    await readyAgain(t, server.base);
    assert.equal((await post(server.base, '/api/session', { name: 'Disk Fine' })).status, 201);
  } finally {
    await server.app.close();
  }
});
