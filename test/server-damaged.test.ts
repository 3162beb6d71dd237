// One damaged stored game must not keep the server (and every other game) down: it is set aside,
// counted on /metrics, logged once, and its id answers `game_damaged` everywhere; the rest is
// served. On SQLite (a real file) and on PostgreSQL (where games come through leases).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { pino } from 'pino';
import { newGame } from '../bot-engine/game.ts';
import type { RecordMove } from '../bot-engine/record.ts';
import { type PrivatePostgres, startPostgres } from '../support/postgres.ts';
import { needing, POSTGRES } from './support/needs.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import type { GameStore } from '../server/games/store.ts';
import { type Endpoint, Client, get, post, randomRecordMoves, type Injected, injectServer, twoPeopleSetup } from './server-helpers.ts';

// Without PostgreSQL installed, its PostgreSQL tests are skipped (the others run); under CI=true they fail.
const { test, before, after, skip: noPostgres } = needing([POSTGRES], (name) => name.startsWith('postgres'));

const TOKEN = 'good-seat-token';
const tokenHash = createHash('sha256').update(TOKEN).digest('hex');
const holders = () => [
  { name: 'Ann', tokenHash },
  { name: 'Bob', tokenHash: null },
];

/** `n` legal moves of the game `setup` deals (the record a server would have stored). */
function legalMoves(id: string, n: number): RecordMove[] {
  const setup = twoPeopleSetup(id);
  return randomRecordMoves(newGame({ players: 2, rules: setup.rules, seed: setup.seed }), 7, n);
}

/** Stores the games every variant starts from: good ones and those about to be damaged. */
async function storeGames(store: GameStore, damaged: string[]): Promise<void> {
  for (const id of ['good', ...damaged]) {
    await store.create(twoPeopleSetup(id), holders());
    await store.appendMoves(id, legalMoves(id, 3), null);
  }
  // Listed: the finished list shows games made public only.
  await store.create({ ...twoPeopleSetup('done'), listed: true }, holders());
  await store.appendMoves('done', legalMoves('done', 1), { abandoned: true, scores: [0, 0] });
  // Finished in this order (the listing shows the latest first): damaged ones between good ones.
  for (const id of ['done-bad', 'done-illegal', 'done-late']) {
    await store.create({ ...twoPeopleSetup(id), listed: true }, holders());
    await store.appendMoves(id, legalMoves(id, 1), { abandoned: true, scores: [0, 0] });
  }
}

/** Finished games that are damaged: one whose setup does not parse, one whose move does not play. */
const FINISHED_DAMAGED = ['done-bad', 'done-illegal'];

/** A logger that keeps its lines for the test to read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const metric = async (base: Endpoint, name: string) => Number(((await get(base, '/metrics')).body as string).match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1]);

/** Every way a damaged game is reached answers game_damaged; the good game plays on. */
async function assertSetAside(server: Injected, damaged: string[], lines: Record<string, unknown>[]): Promise<void> {
  for (const id of [...damaged, ...FINISHED_DAMAGED]) {
    const summary = await get(server.base, `/api/games/${id}`);
    assert.equal(summary.status, 500, `${id}: ${JSON.stringify(summary.body)}`);
    assert.equal(summary.body.code, 'game_damaged');
    assert.match(summary.body.message, new RegExp(`game ${id} is damaged`));
    assert.equal((await get(server.base, `/api/games/${id}/record`)).body.code, 'game_damaged');
    assert.equal((await get(server.base, `/api/games/${id}/analysis`)).body.code, 'game_damaged');
    assert.equal((await post(server.base, `/api/games/${id}/analysis`, undefined)).body.code, 'game_damaged');
    assert.equal((await post(server.base, `/api/games/${id}/seats`, { name: 'Cy' })).body.code, 'game_damaged');
    await assert.rejects(() => Client.join(server.ws, id, TOKEN), /hello refused: game_damaged/);
  }
  // Counted and logged once each (one line naming it, no stack), however often it is reached.
  assert.equal(await metric(server.base, 'tessera_games_damaged'), damaged.length + FINISHED_DAMAGED.length);
  const told = lines.filter((l) => /stored game is damaged/.test(String(l.msg)));
  assert.deepEqual(told.map((l) => l.gameId).sort(), [...damaged, ...FINISHED_DAMAGED].sort());
  for (const l of told) assert.ok(!('err' in l) && !JSON.stringify(l).includes('    at '), `no stack: ${JSON.stringify(l)}`);

  // Every other game is served: the good one is played on, the finished one is listed.
  assert.equal((await get(server.base, '/api/games/good')).body.turn, 3);
  const ann = await Client.join(server.ws, 'good', TOKEN);
  const view = (await ann.latestState((f) => f.view.turn === 3)).view;
  assert.equal(view.status, 'playing');
  ann.close();
  // Lists that read every row's setup skip a damaged one (none is listed), never fail on it.
  const lobby = await get(server.base, '/api/games');
  assert.deepEqual([lobby.status, lobby.body.games?.length], [200, 0], JSON.stringify(lobby.body));
  const finished = (await get(server.base, '/api/games/finished')).body.games.map((g: { id: string }) => g.id);
  assert.deepEqual(finished, ['done-late', 'done']);
  // Pages of one: each holds one game (the damaged ones left out do not shorten it), none skipped.
  const pages: string[][] = [];
  for (let before = ''; pages.length < 5; ) {
    const { body } = await get(server.base, `/api/games/finished?limit=1${before}`);
    pages.push(body.games.map((g: { id: string }) => g.id));
    if (body.next === null) break;
    before = `&before=${body.next}`;
  }
  assert.deepEqual(pages, [['done-late'], ['done']]);
  assert.equal((await get(server.base, '/readyz')).status, 200);
}

test('sqlite: a game whose stored data does not parse or replay is set aside; the server boots and serves every other game', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-damaged-'));
  const path = join(dataDir, 'tessera.db');
  const damaged = ['bad-json', 'bad-byte', 'illegal', 'bad-setup', 'bad-holders'];
  const store = new SqliteStore({ path });
  await storeGames(store, damaged);
  await store.close();
  const db = new DatabaseSync(path);
  // One byte of a move: no longer JSON; and one byte that keeps it JSON but names no tile.
  db.exec(`UPDATE moves SET move = 'X' || substr(move, 2) WHERE game_id = 'bad-json' AND seq = 1;
    UPDATE moves SET move = substr(move, 1, 5) || 'X' || substr(move, 7) WHERE game_id = 'bad-byte' AND seq = 1;
    UPDATE moves SET move = json_set(move, '$.x', 40) WHERE game_id = 'illegal' AND seq = 2;
    UPDATE games SET setup = substr(setup, 1, 20) WHERE id = 'bad-setup';
    UPDATE games SET holders = '[{"name":"Ann"}]' WHERE id = 'bad-holders';
    UPDATE games SET setup = substr(setup, 3) WHERE id = 'done-bad';
    UPDATE moves SET move = json_set(move, '$.x', 40) WHERE game_id = 'done-illegal' AND seq = 0;`);
  db.close();

  const { logger, lines } = capturingLogger();
  const server = await injectServer({ dataDir }, true, { logger });
  try {
    await assertSetAside(server, damaged, lines);
  } finally {
    await server.app.close();
  }
});

let postgres: PrivatePostgres;
before(async () => {
  if (!noPostgres) postgres = await startPostgres();
});
after(() => postgres?.stop());

test('postgres: a damaged game is set aside, taken over once by the lease scanner (no claim loop), and every other game is served', { timeout: 60_000 }, async () => {
  const databaseUrl = await postgres.database('damaged');
  const damaged = ['illegal', 'bad-setup', 'bad-holders', 'bad-move'];
  const store = await PostgresStore.connect({ url: databaseUrl });
  await storeGames(store, damaged);
  await store.close();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // jsonb always parses: the damage is in what it holds.
    await db.query(`UPDATE moves SET move = jsonb_set(move, '{x}', '40') WHERE game_id = 'illegal' AND seq = 2;
      UPDATE games SET setup = '{"id": "bad-setup"}' WHERE id = 'bad-setup';
      UPDATE games SET holders = '[1]' WHERE id = 'bad-holders';
      UPDATE moves SET move = '"V"' WHERE game_id = 'bad-move' AND seq = 0;
      UPDATE games SET setup = '[]' WHERE id = 'done-bad';
      UPDATE moves SET move = jsonb_set(move, '{x}', '40') WHERE game_id = 'done-illegal' AND seq = 0;`);
    const { logger, lines } = capturingLogger();
    const server = await injectServer({ databaseUrl, instanceId: 'a', leaseSeconds: 1 }, true, { logger });
    try {
      // The good game comes through the lease scanner; the damaged ones are set aside there.
      const until = Date.now() + 10_000;
      while ((await metric(server.base, 'tessera_games_damaged')) < damaged.length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      await assertSetAside(server, damaged, lines);
      // Several lease periods later, each was taken once (created at epoch 1): no claim loop.
      await new Promise((r) => setTimeout(r, 2500));
      const { rows } = await db.query('SELECT id, owner_epoch FROM games WHERE NOT finished ORDER BY id');
      assert.deepEqual(
        rows.map((r) => [r.id, Number(r.owner_epoch)]),
        [...damaged, 'good'].sort().map((id) => [id, 2]),
      );
      assert.equal(await metric(server.base, 'tessera_cluster_takeovers_total'), 1);
    } finally {
      await server.app.close();
    }
  } finally {
    await db.end();
  }
});
