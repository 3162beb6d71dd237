// Ratings move in the transaction that stores a rated game's end, on every store (memory, SQLite,
// a private PostgreSQL): exactly once per game, nothing on a refused end, nothing for a pair of
// people past their games of the day; the leaderboard's conditions; and on PostgreSQL no update
// lost when two instances end games with a player in common at the same moment.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { mock } from 'node:test';
import pg from 'pg';
import { newSessionId, sessionHash } from '../server/players/store.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../server/storage/postgres/migrations.ts';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../server/storage/sqlite/games.ts';
import type { GameSetup, GameStore } from '../server/games/store.ts';
import { DAY_MS, LEADERBOARD_ACTIVE_DAYS, NEW_RATING, PAIR_GAMES_PER_DAY, rateSeats } from '../server/ratings/model.ts';
import type { Backend } from '../server/plugins/store.ts';
import { postgresBackend, postgresBackendOver } from '../server/storage/postgres/backend.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';
import { postgresRatingsSeqMigration, sqliteRatingsSeqMigration } from '../server/ratings/schema.ts';
import type { RatingChange } from '../server/ratings/store.ts';
import { everyStore } from './support/every-store.ts';

const ann = 'p_annAAAAAAAAAAAAAAAAAAA';
const bo = 'p_boBBBBBBBBBBBBBBBBBBBB';
const cy = 'p_cyCCCCCCCCCCCCCCCCCCCC';
const di = 'p_diDDDDDDDDDDDDDDDDDDDD';
const setup = (id: string): GameSetup => ({
  id,
  createdAt: new Date().toISOString(),
  seed: id,
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'expert' }],
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
  rated: true,
});
/** A rated game of these players (`bot:<level>` a bot seat). */
const setupOf = (id: string, players: string[]): GameSetup => ({
  ...setup(id),
  seats: players.map((p) => (p.startsWith('bot:') ? { kind: 'bot', level: p.slice(4) as 'expert' } : { kind: 'person' })),
});
const holders = [
  { name: 'Ann', tokenHash: null, playerId: ann },
  { name: 'Bo', tokenHash: null, playerId: bo },
  { name: 'expert bot 3', tokenHash: null, playerId: 'bot:expert' },
];
const rated = { players: [ann, bo, 'bot:expert'], ranks: [2, 1, 3] };

const { test, backends, postgresUrl } = everyStore('ratings');

async function withPlayers({ players, ratings }: Backend, more: [string, string][] = []) {
  for (const [id, name] of [[ann, 'Ann'], [bo, 'Bo'], ...more])
    await players.createPlayer({ id, name, createdAt: new Date().toISOString() }, { hash: sessionHash(newSessionId()), playerId: id, expiresAt: Date.now() + 60_000 });
  return { players, ratings };
}

for (const [name, make] of backends) {
  test(`${name}: a rated end moves every player's rating once, with the end`, async () => {
    const backend = await make();
    const store = backend.games;
    const { ratings } = await withPlayers(backend);
    await store.create(setup('r1'), holders);
    await store.appendMoves('r1', [], { abandoned: false, scores: [40, 52, 31], rated });
    const expected = rateSeats([NEW_RATING, NEW_RATING, NEW_RATING], rated.ranks);
    const now = await ratings.ratings([ann, bo, 'bot:expert', 'p_nobodyAAAAAAAAAAAAAAA']);
    assert.equal(now.size, 3, 'a player never rated has no row');
    for (const [seat, id] of rated.players.entries()) {
      assert.ok(Math.abs(now.get(id)!.mu - expected[seat].mu) < 1e-9);
      assert.equal(now.get(id)!.games, 1);
    }
    assert.deepEqual((await store.get('r1'))!.end, { abandoned: false, scores: [40, 52, 31] }, 'the game keeps its end; the result lives in the rating changes');
    // The same end again (a retry after a lost answer, a second instance): refused, nothing moves.
    await assert.rejects(() => store.appendMoves('r1', [], { abandoned: false, scores: [40, 52, 31], rated }));
    assert.equal((await ratings.ratings([ann])).get(ann)!.games, 1);
    assert.deepEqual(
      (await ratings.history(bo, 10)).map((c) => [c.gameId, c.seat, c.rank]),
      [['r1', 1, 1]],
    );
    // An unrated end leaves ratings alone.
    await store.create({ ...setup('u1'), rated: false }, holders);
    await store.appendMoves('u1', [], { abandoned: false, scores: [1, 2, 3] });
    assert.equal((await ratings.ratings([ann])).get(ann)!.games, 1);
    assert.deepEqual(
      (await ratings.leaderboard(10, 0)).map((r) => r.name),
      ['expert bot'],
      'one game each: provisional people wait; the bot level, an anchor, is listed',
    );
    await store.close();
  });

  test(`${name}: the leaderboard lists people with a settled rating, several opponents and a recent game; a pair's games beyond ${PAIR_GAMES_PER_DAY} a day move nothing`, async () => {
    const backend = await make();
    const store = backend.games;
    const { players, ratings } = await withPlayers(backend, [
      [cy, 'Cy'],
      [di, 'Di'],
    ]);
    let n = 0;
    const play = async (players: string[]) => {
      const id = `g${++n}`;
      await store.create(
        setupOf(id, players),
        players.map((p, seat) => ({ name: `${p} ${seat}`, tokenHash: null, playerId: p })),
      );
      await store.appendMoves(id, [], { abandoned: false, scores: players.map((_, seat) => 10 - seat), rated: { players, ranks: players.map((_, seat) => seat + 1) } });
    };
    const games = async (id: string) => (await ratings.ratings([id])).get(id)?.games ?? 0;
    const listed = async (now?: number) => (await ratings.leaderboard(20, 0, now)).map((r) => r.playerId).sort();
    // Ann beats Bo four times in a day: the fourth moves nobody, with a bot at the table too.
    for (let i = 0; i < PAIR_GAMES_PER_DAY + 1; i++) await play([ann, bo]);
    await play([ann, bo, 'bot:expert']);
    assert.deepEqual([await games(ann), await games(bo), await games('bot:expert')], [PAIR_GAMES_PER_DAY, PAIR_GAMES_PER_DAY, 0]);
    assert.equal((await ratings.history(ann, 10)).length, PAIR_GAMES_PER_DAY);
    // Other opponents make Ann's five games, against three opponents: listed.
    await play([ann, cy]);
    await play([ann, 'bot:random']);
    // Di plays five games against two bot levels: settled, but one measure of two opponents.
    for (let i = 0; i < 3; i++) await play(['bot:random', di]);
    for (let i = 0; i < 2; i++) await play([di, 'bot:expert']);
    const di5 = (await ratings.ratings([di])).get(di)!;
    assert.deepEqual([di5.games, di5.opponents], [5, 2]);
    assert.deepEqual(await listed(), [ann, 'bot:expert', 'bot:random'].sort(), 'Bo and Cy provisional, Di with two opponents: left out');
    await play([di, bo]);
    assert.deepEqual(await listed(), [ann, 'bot:expert', 'bot:random', di].sort(), 'a third opponent lists Di');
    // A month without a rated game: only the bot levels stay.
    const later = Date.now() + (LEADERBOARD_ACTIVE_DAYS + 1) * DAY_MS;
    assert.deepEqual(await listed(later), ['bot:expert', 'bot:random']);
    // A deleted player leaves the leaderboard; their history stays with the games.
    await players.deletePlayer(ann, 'deleted player', new Date().toISOString());
    assert.deepEqual(await listed(), ['bot:expert', 'bot:random', di].sort());
    assert.equal((await ratings.history(ann, 10)).length, 5);
    await store.close();
  });
}

for (const [name, make] of backends) {
  test(`${name}: rated ends stored in the same millisecond keep their order in a player's history`, async () => {
    const backend = await make();
    const store = backend.games;
    const { ratings } = await withPlayers(backend);
    // Ids that sort against the order the games end in: time and id cannot order them.
    const ids = ['r-z', 'r-m', 'r-a'];
    for (const id of ids) await store.create(setup(id), holders);
    mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-01-01T00:00:00.000Z') });
    try {
      for (const [i, id] of ids.entries())
        await store.appendMoves(id, [], { abandoned: false, scores: [1, 2, 3], rated: { players: rated.players, ranks: [1 + (i % 3), 1 + ((i + 1) % 3), 1 + ((i + 2) % 3)] } });
    } finally {
      mock.timers.reset();
    }
    const history = await ratings.history(ann, 10);
    assert.deepEqual(
      history.map((c) => [c.gameId, c.at]),
      ids.map((id) => [id, '2026-01-01T00:00:00.000Z']),
    );
    for (let i = 1; i < history.length; i++) assert.deepEqual(history[i].before, history[i - 1].after, 'each change starts from the one before');
    assert.deepEqual(
      (await ratings.history(ann, 2)).map((c) => c.gameId),
      ['r-m', 'r-a'],
      'the latest two',
    );
    await store.close();
  });
}

test('postgres: two instances ending games with a player in common lose no rating update', async () => {
  const url = await postgresUrl('ratings_race');
  const a = await PostgresStore.connect({ url });
  const b = await PostgresStore.connect({ url });
  const { ratings } = postgresBackendOver(a);
  const games = 8;
  // One person each and the expert bot: people's pairs are limited a day, a bot's are not.
  const game = (p: string) => [setupOf('', [p, 'bot:expert']), [{ name: p, tokenHash: null, playerId: p }, holders[2]]] as const;
  for (let i = 0; i < games; i++) {
    await a.create({ ...game(ann)[0], id: `a${i}`, seed: `a${i}` }, [...game(ann)[1]]);
    await b.create({ ...game(bo)[0], id: `b${i}`, seed: `b${i}` }, [...game(bo)[1]]);
  }
  await Promise.all(
    Array.from({ length: games }, (_, i) => [
      a.appendMoves(`a${i}`, [], { abandoned: false, scores: [1, 2], rated: { players: [ann, 'bot:expert'], ranks: [2, 1] } }),
      b.appendMoves(`b${i}`, [], { abandoned: false, scores: [2, 1], rated: { players: [bo, 'bot:expert'], ranks: [1, 2] } }),
    ]).flat(),
  );
  const expert = (await ratings.ratings(['bot:expert'])).get('bot:expert')!;
  assert.equal(expert.games, 2 * games, 'every game counted');
  // The changes chain: each starts from the rating the previous one left, so none was computed
  // from a rating another transaction was replacing.
  const history: RatingChange[] = await ratings.history('bot:expert', 100);
  assert.equal(history.length, 2 * games);
  let at = { mu: NEW_RATING.mu, sigma: NEW_RATING.sigma };
  // In the history's order: each change starts from the one before (ends of the same millisecond too).
  for (const change of history) {
    assert.ok(Math.abs(change.before.mu - at.mu) < 1e-9 && Math.abs(change.before.sigma - at.sigma) < 1e-9, `${change.gameId} starts from μ ${at.mu}`);
    at = change.after;
  }
  assert.ok(Math.abs(at.mu - expert.mu) < 1e-9, 'the last change is the rating stored');
  await a.close();
  await b.close();
});

/** Two rated ends (`first`, then `second`) stored at `at`. */
async function twoEnds(store: GameStore, first: string, second: string, at: string): Promise<void> {
  for (const id of [first, second]) await store.create(setup(id), holders);
  mock.timers.enable({ apis: ['Date'], now: Date.parse(at) });
  try {
    for (const id of [first, second]) await store.appendMoves(id, [], { abandoned: false, scores: [1, 2, 3], rated });
  } finally {
    mock.timers.reset();
  }
}

test('sqlite: changes stored before the sequence was kept are numbered in the order they were written', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tessera-ratings-')), 'games.db');
  const backend = sqliteBackend({ path });
  const store = backend.games;
  await withPlayers(backend);
  await twoEnds(store, 'r-z', 'r-a', '2026-01-01T00:00:00.000Z');
  await store.close();
  // Back to the schema before the migration, as an older server left it.
  const db = new DatabaseSync(path);
  db.exec(`DROP INDEX rating_changes_by_player_seq; ALTER TABLE rating_changes DROP COLUMN seq;
    CREATE INDEX rating_changes_by_player ON rating_changes (player_id, at); PRAGMA user_version = ${SQLITE_MIGRATIONS.indexOf(sqliteRatingsSeqMigration)};`);
  db.close();
  const { games: again, ratings } = sqliteBackend({ path });
  assert.deepEqual(
    (await ratings.history(ann, 10)).map((c) => c.gameId),
    ['r-z', 'r-a'],
  );
  // A later end follows them.
  // (Two days on: the pair has had its rated games of that day.)
  await twoEnds(again, 'r-y', 'r-b', '2026-01-03T00:00:00.000Z');
  assert.deepEqual(
    (await ratings.history(ann, 10)).map((c) => c.gameId),
    ['r-z', 'r-a', 'r-y', 'r-b'],
  );
  await again.close();
});

test('postgres: changes stored before the sequence was kept are numbered by time', async () => {
  const url = await postgresUrl('ratings_seq');
  const backend = await postgresBackend({ url });
  const store = backend.games;
  await withPlayers(backend);
  // A day apart: a pair's rated games of one day are limited.
  await twoEnds(store, 'r-z', 'r-a', '2026-01-01T00:00:00.000Z');
  await twoEnds(store, 'r-y', 'r-b', '2026-01-02T00:00:00.000Z');
  await store.close();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`DROP INDEX rating_changes_by_player_seq; ALTER TABLE rating_changes DROP COLUMN seq;
    CREATE INDEX rating_changes_by_player ON rating_changes (player_id, at); DELETE FROM schema_migrations WHERE version > ${POSTGRES_MIGRATIONS.indexOf(postgresRatingsSeqMigration)}`);
  await db.end();
  const { games: again, ratings } = await postgresBackend({ url });
  // What was not kept cannot be told: ends of one millisecond by game id.
  assert.deepEqual(
    (await ratings.history(ann, 10)).map((c) => c.gameId),
    ['r-a', 'r-z', 'r-b', 'r-y'],
  );
  await twoEnds(again, 'r-x', 'r-c', '2026-01-04T00:00:00.000Z');
  assert.deepEqual(
    (await ratings.history(ann, 10)).map((c) => c.gameId),
    ['r-a', 'r-z', 'r-b', 'r-y', 'r-x', 'r-c'],
  );
  await again.close();
});
