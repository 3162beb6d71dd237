// The GameStore contract, run against every store (memory, SQLite, a private PostgreSQL), and
// SQLite's durability across a SIGKILL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  type DamagedGame,
  DamagedGameError,
  type GameMetadata,
  type GameQuery,
  type GameSetup,
  type GameStore,
  isDamaged,
  type ListedGame,
  RematchTakenError,
  type SeatHolder,
  type StoredGame,
} from '../server/games/store.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { MIGRATIONS, SqliteStore } from '../server/storage/sqlite/games.ts';
import { sqliteGamePlayersMigration } from '../server/storage/sqlite/game-players.ts';
import { COMMITS_PER_CHECKPOINT, WalCheckpointer } from '../server/storage/sqlite/wal-checkpointer.ts';
import { getAnalysis, listFinished, markSeen, openGames, recordHint, saveAnalysis, setRematch, takeSeat, unfinishedGames } from '../server/games/store-operations.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { everyStore } from './support/every-store.ts';
import { randomRecordMoves, threadsAtNice } from './server-helpers.ts';
import type { RecordMove } from '../bot-engine/record.ts';
import { pino } from 'pino';
import { GameService } from '../server/games/service.ts';
import type { BotMover } from '../server/games/room.ts';
import { Metrics } from '../server/metrics.ts';
import { DatabaseSync } from 'node:sqlite';
import { newGame } from '../bot-engine/game.ts';
import { once } from 'node:events';
import { toRecord } from '../bot-engine/record.ts';
import { AnalysisService } from '../server/analysis/service.ts';
import type { GameAnalysis } from '../server/wire/analysis.ts';

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'tessera-store-')), 'games.db');
const setup = (id: string, createdAt = '2026-11-21T10:00:00.000Z'): GameSetup => ({
  id,
  createdAt,
  seed: `seed-${id}`,
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }],
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
});
const move = (x: number): RecordMove => ({ tile: 'V', x, y: 1, rotation: 0, meeple: null });

// Without PostgreSQL installed, its tests are skipped (the others run); under CI=true they fail.
const { test, stores, backends, postgresUrl } = everyStore('store');

for (const [name, make] of stores) {
  test(`${name} store: a game round-trips with its seats and moves in order`, async () => {
    const store = await make();
    await store.create(setup('g1'), [null, { name: 'Bot (random)', tokenHash: null }]);
    assert.equal((await store.get('g1'))!.holders[0], null);
    await takeSeat(store, 'g1', 0, { name: 'Alice', tokenHash: 'ab'.repeat(32) });
    await store.appendMoves('g1', [move(1), { discard: 'X' }], null);
    await store.appendMoves('g1', [move(2)], null);
    const g = (await store.get('g1'))!;
    assert.deepEqual(g.setup, setup('g1'));
    assert.deepEqual(g.holders[0], { name: 'Alice', tokenHash: 'ab'.repeat(32) });
    assert.deepEqual(g.moves, [move(1), { discard: 'X' }, move(2)]);
    assert.equal(g.finished, false);
    assert.equal(await store.get('nope'), undefined);
    await assert.rejects(() => store.appendMoves('nope', [move(1)], null));
    assert.equal(g.end, null);
    assert.equal(g.rematch, null);
    await setRematch(store, 'g1', 'g2');
    await setRematch(store, 'g1', 'g2');
    await assert.rejects(
      () => setRematch(store, 'g1', 'g3'),
      (e: unknown) => e instanceof RematchTakenError && e.rematchId === 'g2',
      'one rematch per game',
    );
    await store.appendMoves('g1', [move(3)], { abandoned: false, scores: [12, 30] });
    const ended = (await store.get('g1'))!;
    assert.deepEqual([ended.finished, ended.end, ended.rematch, ended.moves.length], [true, { abandoned: false, scores: [12, 30] }, 'g2', 4]);
    await assert.rejects(() => store.create(setup('g1'), [null, null]));
    await store.close();
  });

  test(`${name} store: unfinished games for recovery; finished ones listed newest first, paged, by player`, async (t) => {
    const store = await make();
    // The stores read the time on this thread: a mocked clock orders the finish times.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    for (let i = 0; i < 5; i++) {
      await store.create(setup(`f${i}`), [i % 2 ? { name: 'Alice', tokenHash: null, playerId: 'p-alice' } : { name: 'Bob', tokenHash: null }, { name: 'Bot', tokenHash: null }]);
      await store.appendMoves(`f${i}`, [move(i)], i < 4 ? { abandoned: i === 0, scores: [i, 7] } : null);
      t.mock.timers.tick(3); // distinct finish times
    }
    assert.deepEqual(
      ((await unfinishedGames(store)) as StoredGame[]).map((g) => g.setup.id),
      ['f4'],
    );
    const first = await listFinished(store, { limit: 2 });
    assert.deepEqual(
      first.games.map((g) => g.setup.id),
      ['f3', 'f2'],
    );
    assert.deepEqual(first.games[0].end, { abandoned: false, scores: [3, 7] });
    assert.equal('moves' in first.games[0], false, 'a listing carries no moves to replay');
    const second = await listFinished(store, { limit: 2, before: first.next! });
    assert.deepEqual(
      second.games.map((g) => g.setup.id),
      ['f1', 'f0'],
    );
    assert.deepEqual(second.games[1].end, { abandoned: true, scores: [0, 7] });
    assert.equal(second.next, null);
    assert.deepEqual(
      (await listFinished(store, { player: 'alice' })).games.map((g) => g.setup.id),
      ['f3', 'f1'],
    );
    assert.deepEqual((await listFinished(store, { player: 'nobody' })).games, []);
    assert.deepEqual(
      (await listFinished(store, { playerId: 'p-alice' })).games.map((g) => g.setup.id),
      ['f3', 'f1'],
      'a signed-in player finds the seats they hold',
    );
    assert.deepEqual((await listFinished(store, { playerId: 'p-bob' })).games, []);
    // A profile shows only the games made public: listed or rated, not invites.
    for (const [id, made] of [
      ['f5', { listed: true }],
      ['f6', { rated: true }],
      ['f7', {}],
    ] as const) {
      await store.create({ ...setup(id), ...made }, [
        { name: 'Alice', tokenHash: null, playerId: 'p-alice' },
        { name: 'Bot', tokenHash: null },
      ]);
      await store.appendMoves(id, [move(1)], { abandoned: false, scores: [1, 2] });
      t.mock.timers.tick(3);
    }
    assert.deepEqual(
      (await listFinished(store, { playerId: 'p-alice', publicOnly: true })).games.map((g) => g.setup.id),
      ['f6', 'f5'],
    );
    await store.close();
  });
}

test('sqlite store: a reopened file has every committed game and move', async () => {
  const path = tempDb();
  const a = new SqliteStore({ path });
  await a.create(setup('r1'), [null, null]);
  await a.appendMoves('r1', [move(1), move(2)], null);
  await a.close();
  const b = new SqliteStore({ path });
  assert.deepEqual((await b.get('r1'))!.moves, [move(1), move(2)]);
  await b.close();
});

test('postgres store: two stores opening one new database migrate it once; a second open keeps the data', async () => {
  const url = await postgresUrl('migrate');
  const [a, b] = await Promise.all([PostgresStore.connect({ url }), PostgresStore.connect({ url })]);
  await a.create(setup('m1'), [null, null]);
  await b.appendMoves('m1', [move(1)], null);
  await Promise.all([a.close(), b.close()]);
  const c = await PostgresStore.connect({ url });
  assert.deepEqual((await c.get('m1'))!.moves, [move(1)]);
  await c.close();
});

for (const moveWrites of ['inline', 'thread'] as const) {
  test(`sqlite store (moves appended ${moveWrites === 'thread' ? 'by the writer thread' : 'on its own connection'}): moves acknowledged before a SIGKILL are all there after it`, {
    timeout: 120_000,
  }, async () => {
    const path = tempDb();
    const storeUrl = new URL('../server/storage/sqlite/games.ts', import.meta.url).href;
    const script = `
    import { SqliteStore } from ${JSON.stringify(storeUrl)};
    const store = new SqliteStore({ path: ${JSON.stringify(path)}, moveWrites: '${moveWrites}' });
    await store.create({ id: 'k', createdAt: 'now', seed: 's', rules: { tinyCity: false, farmers: '3rd' }, seats: [] }, [null, null]);
    for (let i = 0; i < 1e6; i++) {
      await store.appendMoves('k', [{ tile: 'V', x: i, y: 1, rotation: 0, meeple: null }], null);
      process.stdout.write(i + '\\n');
    }`;
    // A module file, not `--input-type=module -e`: worker threads inherit the process's flags, and
    // the writer thread cannot start under --input-type (it would fail every write at once).
    const scriptFile = join(mkdtempSync(join(tmpdir(), 'tessera-kill-')), 'writer.mjs');
    writeFileSync(scriptFile, script);
    const child = spawn(process.execPath, [scriptFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let acknowledged = -1;
    let buffered = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        if (lines.length) acknowledged = Number(lines[lines.length - 1]);
        // 50 acknowledged writes, then killed with more in flight: each write is a round trip (and an
        // fsync) that a loaded machine slows by tens of times, so not more than the test needs.
        if (acknowledged >= 50 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    assert.ok(acknowledged >= 50, `the child appended moves until killed (${acknowledged + 1} acknowledged)`);
    const store = new SqliteStore({ path });
    const moves = (await store.get('k'))!.moves;
    assert.ok(moves.length >= acknowledged + 1, `${moves.length} stored, ${acknowledged + 1} acknowledged`);
    for (const [i, m] of moves.entries()) assert.equal('x' in m && m.x, i);
    await store.close();
  });
}

test('restore skips a stored game that no longer replays, logs it, and keeps the others', async () => {
  const store = new MemoryStore();
  const bot = { name: 'Bot (random)', tokenHash: null };
  // Made now: the sweep at the end of a restore would end a game whose open seat waited too long.
  const now = new Date().toISOString();
  await store.create(setup('good', now), [null, bot]);
  await store.create(setup('broken', now), [null, bot]);
  await store.appendMoves('broken', [{ tile: 'V', x: 40, y: 40, rotation: 0, meeple: null }], null); // not next to any tile
  const errors: unknown[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line)) });
  const metrics = new Metrics();
  try {
    const games = new GameService({ store, bots: { move: () => Promise.reject(new Error('no bots here')) } as unknown as BotMover, log, metrics, maxGames: 10, overloaded: () => null });
    assert.equal(await games.restore(), 1);
    assert.equal((await games.get('good'))?.status, 'waiting');
    assert.equal(errors.length, 1);
    assert.match(JSON.stringify(errors[0]), /"gameId":"broken".*does not replay/);
    assert.equal((await store.get('broken'))!.moves.length, 1, 'the broken record is left as it was');
  } finally {
    metrics.close();
  }
});

test('sqlite store: a database from before final scores were stored is migrated, and its finished games still list with scores', async () => {
  const path = tempDb();
  // The first schema, as a server of that version left it: one finished game, no final scores.
  const old = new DatabaseSync(path);
  old.exec(`CREATE TABLE games (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, setup TEXT NOT NULL, holders TEXT NOT NULL,
      move_count INTEGER NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0, finished_at TEXT) STRICT;
    CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (game_id, seq)) STRICT, WITHOUT ROWID;
    CREATE TABLE seat_names (game_id TEXT NOT NULL REFERENCES games (id), seat INTEGER NOT NULL, name TEXT NOT NULL COLLATE NOCASE, PRIMARY KEY (game_id, seat)) STRICT, WITHOUT ROWID;`);
  const state = newGame({ players: 2, seed: 'legacy' });
  const moves = randomRecordMoves(state, 3);
  old.prepare('INSERT INTO games VALUES (?, ?, ?, ?, ?, 1, ?)').run(
    'old',
    'then',
    JSON.stringify({ ...setup('old'), seed: 'legacy' }),
    JSON.stringify([
      { name: 'Ann', tokenHash: null },
      { name: 'Bob', tokenHash: null },
    ]),
    moves.length,
    '2026-01-01T00:00:00.000Z',
  );
  for (const [i, m] of moves.entries()) old.prepare('INSERT INTO moves VALUES (?, ?, ?)').run('old', i, JSON.stringify(m));
  old.close();

  const store = new SqliteStore({ path });
  assert.deepEqual((await store.get('old'))!.end, { abandoned: false, scores: null });
  const games = new GameService({ store, bots: {} as BotMover, log: pino({ level: 'silent' }), metrics: new Metrics(), maxGames: 10, overloaded: () => null });
  const [listed] = (await games.finished({})).games;
  assert.deepEqual(
    listed.players.map((p) => p.score),
    [state.score(0), state.score(1)],
  );
  games.close();
  await store.close();
});

for (const [name, make] of stores) {
  test(`${name} store: hints and a game's analysis are kept with the game`, async () => {
    const store = await make();
    await store.create(setup('h1'), [null, { name: 'Bot (random)', tokenHash: null }]);
    assert.deepEqual((await store.get('h1'))!.hints, []);
    await recordHint(store, 'h1', 0);
    await recordHint(store, 'h1', 0);
    assert.deepEqual((await store.get('h1'))!.hints, [2]);
    assert.equal(await getAnalysis(store, 'h1'), undefined);
    const analysis = { v: 1, createdAt: '2026-11-25T00:00:00.000Z', names: ['Ann'], positions: [{ moveIndex: 0, loss: 2.5 }] };
    await saveAnalysis(store, 'h1', analysis);
    assert.deepEqual(await getAnalysis(store, 'h1'), analysis);
    await assert.rejects(() => saveAnalysis(store, 'nope', analysis));
    await store.close();
  });
}

// An analysis as the analysis service answers it (and as it was stored before its stored form).
const wireAnalysis = (gameId: string): GameAnalysis => ({
  gameId,
  status: 'done',
  engine: { level: 'expert', samples: 16, version: 1 },
  seats: [
    { seat: 0, name: 'Ann', moves: 2, pointsLost: 5.5, mistakes: 1, bestMoves: 1 },
    { seat: 1, name: 'Bot (random)', moves: 0, pointsLost: 0, mistakes: 0, bestMoves: 0 },
  ],
  moves: [
    { moveIndex: 0, seat: 0, tile: 'V', played: { x: 1, y: 0, rotation: 0, meeple: null }, best: { x: 0, y: 1, rotation: 90, meeple: 'road:E' }, playedValue: 1, bestValue: 6.5, loss: 5.5 },
    { moveIndex: 2, seat: 0, tile: 'D', played: { x: 2, y: 0, rotation: 180, meeple: 'city:N' }, best: { x: 2, y: 0, rotation: 180, meeple: 'city:N' }, playedValue: null, bestValue: null, loss: 0 },
  ],
  createdAt: '2026-11-25T00:00:00.000Z',
});
// No position to judge: the analysis completes at once, without a worker.
const idlePool = { size: 0, analyse: () => Promise.reject(new Error('no position to analyse')) };

const sqlStores: [string, () => Promise<{ store: SqliteStore | PostgresStore; writeRaw: (id: string, body: object) => Promise<void> }>][] = [
  [
    'sqlite',
    async () => {
      const path = tempDb();
      const writeRaw = async (id: string, body: object) => {
        const db = new DatabaseSync(path);
        db.prepare('INSERT INTO analyses (game_id, created_at, body) VALUES (?, ?, ?)').run(id, '2026-11-25T00:00:00.000Z', JSON.stringify(body));
        db.close();
      };
      return { store: new SqliteStore({ path }), writeRaw };
    },
  ],
  [
    'postgres',
    async () => {
      const url = await postgresUrl('analysis');
      const writeRaw = async (id: string, body: object) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('INSERT INTO analyses (game_id, created_at, body) VALUES ($1, $2, $3)', [id, '2026-11-25T00:00:00.000Z', JSON.stringify(body)]);
        await client.end();
      };
      return { store: await PostgresStore.connect({ url }), writeRaw };
    },
  ],
];

for (const [name, make] of sqlStores) {
  test(`${name} store: an analysis is stored in its own form, not as the wire answer`, async () => {
    const { store } = await make();
    await store.create(setup('an1'), [
      { name: 'Ann', tokenHash: null },
      { name: 'Bot (random)', tokenHash: null },
    ]);
    const service = new AnalysisService({ pool: idlePool, store, log: pino({ level: 'silent' }), maxJobs: 1 });
    const done = once(service, 'update');
    service.request('an1', toRecord(newGame({ players: 2, seed: 'an1' }), ['Ann', 'Bot (random)'], 'an1'));
    const [answer] = (await done) as [GameAnalysis];
    assert.deepEqual([answer.status, answer.seats.map((s) => s.name)], ['done', ['Ann', 'Bot (random)']]);
    const raw = (await store.raw('an1'))!.analysis;
    const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
    assert.deepEqual(body, { v: 1, createdAt: answer.createdAt, engine: answer.engine, names: ['Ann', 'Bot (random)'], positions: [] });
    assert.deepEqual(await service.status('an1'), answer, 'read back as the same answer');
    service.close();
    await store.close();
  });

  test(`${name} store: an analysis stored as the wire answer (before its stored form) still loads`, async () => {
    const { store, writeRaw } = await make();
    await store.create(setup('an2'), [
      { name: 'Ann', tokenHash: null },
      { name: 'Bot (random)', tokenHash: null },
    ]);
    await writeRaw('an2', wireAnalysis('an2'));
    const service = new AnalysisService({ pool: idlePool, store, log: pino({ level: 'silent' }), maxJobs: 1 });
    assert.deepEqual(await service.status('an2'), wireAnalysis('an2'));
    await store.create(setup('an3'), [null, null]);
    await writeRaw('an3', { v: 99, createdAt: '2026-11-25T00:00:00.000Z' });
    await assert.rejects(() => service.status('an3'), DamagedGameError, 'a form it does not know is damage, not a crash');
    service.close();
    await store.close();
  });
}

for (const [name, make] of stores) {
  test(`${name} store: a game keeps when it was last active and when a person was last seen`, async (t) => {
    const store = await make();
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    await store.create(setup('a1', '2026-11-21T10:00:00.000Z'), [null, { name: 'Bot (random)', tokenHash: null }]);
    const created = Date.parse('2026-11-21T10:00:00.000Z');
    const times = async () => {
      const g = (await store.get('a1'))!;
      return [g.lastActivityAt, g.lastPersonAt];
    };
    assert.deepEqual(await times(), [created, created]);
    const seated = Date.now();
    await takeSeat(store, 'a1', 0, { name: 'Ann', tokenHash: null });
    const [activity, person] = await times();
    assert.ok(activity! >= seated && person === activity, 'taking a seat is activity, and a person seen');
    t.mock.timers.tick(5);
    await store.appendMoves('a1', [move(1)], null);
    const [moved, stillPerson] = await times();
    assert.ok(moved! > activity!, 'a move is activity');
    assert.equal(stillPerson, person, 'a move is not a person seen (a bot may have made it)');
    await markSeen(store, 'a1', person! + 1000);
    await markSeen(store, 'a1', person! + 10);
    assert.deepEqual(await times(), [moved, person! + 1000], 'a later mark never moves back');
    await store.close();
  });
}

test('sqlite store: unfinished games stored before activity was kept count from the boot that migrates them', async () => {
  const path = tempDb();
  const a = new SqliteStore({ path });
  await a.create(setup('old', '2020-01-01T00:00:00.000Z'), [null, null]);
  await a.close();
  const db = new DatabaseSync(path);
  // A database of version 2 has none of the later columns (the turn-based deadline is computed from the activity).
  db.exec('DROP INDEX games_deadlines; DROP INDEX games_unfinished_pace; ALTER TABLE games DROP COLUMN deadline_at; ALTER TABLE games DROP COLUMN move_ms;');
  db.exec('ALTER TABLE games DROP COLUMN last_activity_at; ALTER TABLE games DROP COLUMN last_person_at; PRAGMA user_version = 2;');
  db.close();
  const migrated = Date.now();
  const b = new SqliteStore({ path });
  const g = (await b.get('old')) as StoredGame;
  assert.ok(g.lastActivityAt! >= migrated - 1 && g.lastPersonAt === g.lastActivityAt, `${g.lastActivityAt} from ${migrated}`);
  await b.close();
});

const damagers: [string, () => Promise<{ store: GameStore; damage: (id: string) => Promise<void> }>][] = [
  [
    'sqlite',
    async () => {
      const path = tempDb();
      const store = new SqliteStore({ path });
      const damage = async (id: string) => {
        const db = new DatabaseSync(path);
        db.prepare("UPDATE moves SET move = 'X' || substr(move, 2) WHERE game_id = ?").run(id);
        db.close();
      };
      return { store, damage };
    },
  ],
  [
    'postgres',
    async () => {
      const url = await postgresUrl('damage');
      const store = await PostgresStore.connect({ url });
      const db = new pg.Client({ connectionString: url });
      return {
        store,
        damage: async (id) => {
          await db.connect();
          await db.query(`UPDATE games SET setup = '{"id": "someone else"}' WHERE id = $1`, [id]);
          await db.end();
        },
      };
    },
  ],
];

for (const [name, make] of damagers) {
  test(`${name} store: a damaged row is a marker in listings and an error when read, never a failure of the others`, async () => {
    const { store, damage } = await make();
    for (const id of ['d1', 'd2', 'd3']) {
      await store.create(setup(id), [null, null]);
      await store.appendMoves(id, [move(1)], null);
    }
    await damage('d2');
    const listed = await unfinishedGames(store);
    assert.deepEqual(
      listed.map((g) => (isDamaged(g) ? `damaged ${g.id}` : g.setup.id)),
      ['d1', 'damaged d2', 'd3'],
    );
    await assert.rejects(
      () => store.get('d2'),
      (e: unknown) => e instanceof DamagedGameError && e.gameId === 'd2',
    );
    assert.equal((await store.get('d3'))!.moves.length, 1);
    await store.close();
  });
}

for (const [name, make] of stores) {
  test(`${name} store: a metadata change sees the game as stored and writes only what it returns, or nothing when it throws`, async () => {
    const store = await make();
    await store.create(setup('u1'), [null, { name: 'Bot', tokenHash: null }]);
    const before = (await store.get('u1'))!;
    const seen: GameMetadata[] = [];
    await store.update('u1', {
      name: 'test',
      apply: (m) => {
        seen.push(m);
        return { rematch: 'u2', hints: [0, 3] };
      },
    });
    assert.deepEqual(seen, [
      { holders: [null, { name: 'Bot', tokenHash: null }], finished: false, rematch: null, hints: [], lastActivityAt: before.lastActivityAt, lastPersonAt: before.lastPersonAt },
    ]);
    await store.update('u1', { name: 'test', apply: () => null });
    await assert.rejects(
      () =>
        store.update('u1', {
          name: 'test',
          apply: () => {
            throw new RangeError('refused');
          },
        }),
      RangeError,
    );
    const after = (await store.get('u1'))!;
    assert.deepEqual({ ...after, rematch: before.rematch, hints: before.hints }, before, 'nothing else changed');
    assert.deepEqual([after.rematch, after.hints], ['u2', [0, 3]]);
    await assert.rejects(() => store.update('nope', { name: 'test', apply: () => ({ rematch: 'x' }) }));
    await store.close();
  });

  test(`${name} store: unfinished games list newest first a page at a time, and the lobby's filter keeps listed games with an open seat`, async () => {
    const store = await make();
    const at = (i: number) => `2026-11-21T10:00:0${i}.000Z`;
    for (let i = 0; i < 5; i++) await store.create({ ...setup(`o${i}`, at(i)), listed: i !== 1 }, [i === 3 ? { name: 'Ann', tokenHash: null } : null, { name: 'Bot', tokenHash: null }]);
    const first = await store.list({ finished: false, limit: 2 });
    const second = await store.list({ finished: false, limit: 2, before: first.next! });
    const third = await store.list({ finished: false, limit: 2, before: second.next! });
    assert.deepEqual(
      [first, second, third].map((p) => p.games.map((g) => (isDamaged(g) ? g.id : g.setup.id))),
      [['o4', 'o3'], ['o2', 'o1'], ['o0']],
    );
    assert.equal(third.next, null);
    assert.equal('moves' in first.games[0], false, 'a listing carries no moves');
    assert.deepEqual(
      (await store.list({ finished: false, open: true })).games.map((g) => (isDamaged(g) ? g.id : g.setup.id)),
      ['o4', 'o2', 'o0'],
    );
    assert.deepEqual(
      (await openGames(store, 2)).map((g) => (isDamaged(g) ? g.id : [g.setup.id, g.moves])),
      [
        ['o4', []],
        ['o2', []],
      ],
    );
    await store.close();
  });

  test(`${name} store: whole games in one read: a listing with moves is what get reads, and recovery and the lobby read nothing else`, async () => {
    const store = await make();
    const at = (i: number) => `2026-11-21T10:00:0${i}.000Z`;
    for (let i = 0; i < 3; i++) await store.create({ ...setup(`w${i}`, at(i)), listed: true }, [null, { name: 'Bot', tokenHash: null }]);
    await store.appendMoves('w0', [move(1), move(2)], null);
    await store.appendMoves('w2', [move(3)], null);
    const page = await store.list({ finished: false, withMoves: true });
    const gets = await Promise.all(['w2', 'w1', 'w0'].map((id) => store.get(id)));
    assert.deepEqual(
      page.games.map((g) => (isDamaged(g) ? g.id : { ...g, finishedAt: undefined })),
      gets.map((g) => ({ ...g, finishedAt: undefined })),
    );
    const calls: string[] = [];
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return value.apply(target, args);
        };
      },
    });
    assert.deepEqual(
      ((await unfinishedGames(counted)) as StoredGame[]).map((g) => [g.setup.id, g.moves.length]),
      [
        ['w0', 2],
        ['w1', 0],
        ['w2', 1],
      ],
    );
    assert.deepEqual(
      ((await openGames(counted, 2)) as StoredGame[]).map((g) => [g.setup.id, g.moves.length]),
      [
        ['w2', 1],
        ['w1', 0],
      ],
    );
    assert.deepEqual(calls, ['list', 'list'], 'one listing each, no game read again');
    await store.close();
  });
}

// Which player is in which game: "your games" and the waiting count ask for a player's games
// (list's `playerId`, with `invited` the seats kept for them), which every store answers from an
// index of its own kept by the writes that change the seats.
const ids = (page: { games: (ListedGame | DamagedGame)[] }) => page.games.map((g) => (isDamaged(g) ? g.id : g.setup.id));
const mine = (store: GameStore, playerId: string, more: Partial<GameQuery> = {}) => store.list({ finished: false, playerId, ...more }).then(ids);
const person = (name: string, playerId: string): SeatHolder => ({ name, tokenHash: 'cd'.repeat(32), playerId });

for (const [name, open] of backends) {
  test(`${name} store: a player's games are found after a seat is taken, a challenge (a seat kept for them), and not after the player is deleted`, async () => {
    const { games: store, players, close } = await open();
    for (const id of ['p-ann', 'p-ben'])
      await players.createPlayer({ id, name: id.slice(2), createdAt: '2026-11-21T09:00:00.000Z' }, { hash: `session-${id}`, playerId: id, expiresAt: Date.now() + 60_000 });
    const at = (i: number) => `2026-11-21T10:00:0${i}.000Z`;
    // c0: Ben challenged Ann (her seat kept); c1, c2: Ann takes an open seat; c3 finished with both.
    await store.create({ ...setup('c0', at(0)), seats: [{ kind: 'person', player: { id: 'p-ann', name: 'ann' } }, { kind: 'person' }] }, [null, person('ben', 'p-ben')]);
    for (const i of [1, 2, 3]) await store.create(setup(`c${i}`, at(i)), [null, { name: 'Bot', tokenHash: null }]);
    assert.deepEqual(await mine(store, 'p-ann'), [], 'no seat of hers yet');
    assert.deepEqual(await mine(store, 'p-ann', { invited: true }), ['c0'], 'the challenge is listed with the invitations');
    assert.deepEqual(await mine(store, 'p-ben'), ['c0']);
    for (const i of [1, 2, 3]) await takeSeat(store, `c${i}`, 0, person('ann', 'p-ann'));
    await store.appendMoves('c3', [move(1)], { abandoned: false, scores: [1, 2] });
    assert.deepEqual(await mine(store, 'p-ann'), ['c2', 'c1']);
    const first = await store.list({ finished: false, playerId: 'p-ann', invited: true, limit: 2 });
    assert.deepEqual([ids(first), ids(await store.list({ finished: false, playerId: 'p-ann', invited: true, limit: 2, before: first.next! }))], [['c2', 'c1'], ['c0']], 'paged');
    assert.deepEqual(await mine(store, 'p-ann', { finished: true }), ['c3']);
    // She takes the seat kept for her: the game is hers, listed once.
    await takeSeat(store, 'c0', 0, person('ann', 'p-ann'));
    assert.deepEqual(await mine(store, 'p-ann', { invited: true }), ['c2', 'c1', 'c0']);
    assert.deepEqual(await mine(store, 'p-ann'), ['c2', 'c1', 'c0']);
    assert.equal(await players.deletePlayer('p-ann', 'Deleted player', new Date().toISOString()), true);
    assert.deepEqual([await mine(store, 'p-ann'), await mine(store, 'p-ann', { finished: true })], [[], []], 'a deleted player holds no seat');
    assert.deepEqual(
      (await store.get('c0'))!.holders.map((h) => [h?.name, h?.playerId]),
      [
        ['Deleted player', undefined],
        ['ben', 'p-ben'],
      ],
    );
    assert.deepEqual(await mine(store, 'p-ben'), ['c0'], "the others' seats stay theirs");
    await close();
  });
}

test("sqlite store: a player's games are read from the index (game_players), never by scanning the games", async () => {
  const store = new SqliteStore({ path: tempDb() });
  for (const invited of [false, true])
    for (const finished of [false, true]) {
      const plan = store.planOf({ finished, playerId: 'p-ann', invited, before: Buffer.from(JSON.stringify(['2026', 'x'])).toString('base64url') });
      assert.ok(
        plan.some((line) => /^SEARCH game_players USING PRIMARY KEY \(player_id=\?\)/.test(line)),
        plan.join('\n'),
      );
      assert.ok(
        plan.some((line) => /^SEARCH g USING INDEX sqlite_autoindex_games_1 \(id=\?\)/.test(line)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((line) => /^SCAN g\b/.test(line)), plan.join('\n'));
    }
  await store.close();
});

test('sqlite store: a database from before the index has it made from its games (held and kept seats) when migrated', async () => {
  const path = tempDb();
  const a = new SqliteStore({ path });
  await a.create({ ...setup('b0'), seats: [{ kind: 'person', player: { id: 'p-ann', name: 'ann' } }, { kind: 'person' }] }, [null, person('ben', 'p-ben')]);
  await a.create(setup('b1'), [person('ann', 'p-ann'), { name: 'Bot', tokenHash: null }]);
  await a.appendMoves('b1', [move(1)], { abandoned: false, scores: [1, 2] });
  await a.close();
  // As the server before this step left it: no index table, nothing to keep it.
  const db = new DatabaseSync(path);
  db.exec(
    `DROP TRIGGER game_players_created; DROP TRIGGER game_players_seated; DROP TRIGGER game_players_removed; DROP TRIGGER game_players_kept; DROP TABLE game_players; PRAGMA user_version = ${MIGRATIONS.indexOf(sqliteGamePlayersMigration)};`,
  );
  db.close();
  const b = new SqliteStore({ path });
  assert.deepEqual([await mine(b, 'p-ann'), await mine(b, 'p-ann', { invited: true }), await mine(b, 'p-ann', { finished: true }), await mine(b, 'p-ben')], [[], ['b0'], ['b1'], ['b0']]);
  // And kept from then on.
  await takeSeat(b, 'b0', 0, person('ann', 'p-ann'));
  assert.deepEqual(await mine(b, 'p-ann'), ['b0']);
  assert.equal(await b.remove('b0'), true);
  assert.deepEqual([await mine(b, 'p-ann', { invited: true }), await mine(b, 'p-ben')], [[], []]);
  // A setup written again (a deleted player's kept seat released) is indexed again.
  await b.create({ ...setup('b2'), seats: [{ kind: 'person', player: { id: 'p-cy', name: 'cy' } }, { kind: 'person' }] }, [null, null]);
  assert.deepEqual(await mine(b, 'p-cy', { invited: true }), ['b2']);
  const writer = new DatabaseSync(path);
  writer.prepare("UPDATE games SET setup = json_remove(setup, '$.seats[0].player') WHERE id = 'b2'").run();
  writer.close();
  assert.deepEqual(await mine(b, 'p-cy', { invited: true }), []);
  await b.close();
});

test('sqlite store: a game whose seats do not parse (damaged by hand) indexes nothing and fails no write', async () => {
  const path = tempDb();
  const store = new SqliteStore({ path });
  await store.create(setup('x0'), [person('ann', 'p-ann'), null]);
  const db = new DatabaseSync(path);
  db.prepare("UPDATE games SET holders = 'not json' WHERE id = 'x0'").run();
  db.close();
  assert.deepEqual(await mine(store, 'p-ann'), []);
  await store.create(setup('x1'), [person('ann', 'p-ann'), null]);
  assert.deepEqual(await mine(store, 'p-ann'), ['x1']);
  await store.close();
});

test("postgres store: a player's games are read through the GIN indexes (held and kept seats), made for a database from before them", async () => {
  const url = await postgresUrl('player_index');
  const a = await PostgresStore.connect({ url });
  await a.create({ ...setup('i0'), seats: [{ kind: 'person', player: { id: 'p-ann', name: 'ann' } }, { kind: 'person' }] }, [null, person('ben', 'p-ben')]);
  await a.close();
  // A database of the version before: the indexes are not there yet.
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('DROP INDEX games_by_holder; DROP INDEX games_by_kept_seat; DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)');
  // Enough other games that reading them all costs more than the index.
  await db.query(
    `INSERT INTO games (id, created_at, setup, holders, last_activity_at, last_person_at)
     SELECT 'bulk' || n, '2026-11-20', jsonb_build_object('id', 'bulk' || n, 'seats', jsonb_build_array(jsonb_build_object('kind', 'person', 'player', jsonb_build_object('id', 'p-' || n)))),
            jsonb_build_array(jsonb_build_object('name', 'p' || n, 'tokenHash', null, 'playerId', 'p-' || n)), 0, 0
       FROM generate_series(1, 5000) n`,
  );
  await db.query('ANALYZE games');
  await db.end();
  const b = await PostgresStore.connect({ url });
  assert.deepEqual([await mine(b, 'p-ann'), await mine(b, 'p-ann', { invited: true }), await mine(b, 'p-ben')], [[], ['i0'], ['i0']]);
  const held = (await b.planOf({ finished: false, playerId: 'p-ann' })).join('\n');
  assert.match(held, /Bitmap Index Scan on games_by_holder/, held);
  assert.doesNotMatch(held, /Seq Scan/, held);
  const invited = (await b.planOf({ finished: false, playerId: 'p-ann', invited: true })).join('\n');
  assert.match(invited, /BitmapOr[\s\S]*games_by_holder[\s\S]*games_by_kept_seat/, invited);
  assert.doesNotMatch(invited, /Seq Scan/, invited);
  await b.close();
});

test('sqlite store with the checkpoint thread: the WAL is copied into the database file by the thread, not by a commit on the event loop', async () => {
  const path = tempDb();
  const atNice10 = threadsAtNice(10);
  const store = new SqliteStore({ path, walCheckpoints: 'thread' });
  const db = (store as unknown as { db: DatabaseSync }).db;
  assert.equal(db.prepare('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint, 0, 'a commit never checkpoints');
  await store.create(setup('w'), [null, null]);
  for (let i = 1; i < COMMITS_PER_CHECKPOINT; i++) await store.appendMoves('w', [move(i)], null);
  for (const deadline = Date.now() + 10_000; store.checkpoints === 0 && Date.now() < deadline; ) await new Promise((r) => setImmediate(r));
  assert.ok(store.checkpoints > 0, 'the thread checkpointed');
  if (process.platform === 'linux') assert.equal(threadsAtNice(10), atNice10 + 1, 'the checkpoint thread runs at nice 10, below the event loop');
  // The database file alone (no WAL beside it) holds every commit the checkpoint covered.
  const copy = `${path}.copy`;
  copyFileSync(path, copy);
  const alone = new DatabaseSync(copy, { readOnly: true });
  assert.equal(alone.prepare("SELECT count(*) AS n FROM moves WHERE game_id = 'w'").get()?.n, COMMITS_PER_CHECKPOINT - 1);
  alone.close();
  await store.close();
  const reopened = new SqliteStore({ path });
  assert.equal((await reopened.get('w'))!.moves.length, COMMITS_PER_CHECKPOINT - 1);
  await reopened.close();
});

test('sqlite store: without the thread (the default, and the inline option) SQLite checkpoints as it always does', async () => {
  for (const store of [new SqliteStore({ path: tempDb() }), new SqliteStore({ path: tempDb(), walCheckpoints: 'inline' })]) {
    const db = (store as unknown as { db: DatabaseSync }).db;
    assert.equal(db.prepare('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint, 1000, 'SQLite checkpoints inside the commit that fills the WAL');
    await store.close();
  }
});

test('sqlite store: a checkpoint thread that cannot run hands checkpoints back (its fallback is called with why)', async () => {
  const reason = await new Promise<string>((resolve) => new WalCheckpointer(join(tempDb(), 'no-such-dir', 'games.db'), 10, resolve));
  assert.match(reason, /unable to open/);
});

test('sqlite store: a checkpoint that fails is reported with why, and asked for again after as many commits', async () => {
  const path = tempDb();
  writeFileSync(path, 'not a database, but long enough to be read as one '.repeat(20));
  const reasons: string[] = [];
  const checkpointer = new WalCheckpointer(
    path,
    10,
    () => assert.fail('the thread runs'),
    (reason) => reasons.push(reason),
  );
  for (let round = 1; round <= 2; round++) {
    for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) checkpointer.committed();
    for (const deadline = Date.now() + 10_000; reasons.length < round && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
  }
  await checkpointer.close();
  assert.equal(reasons.length, 2);
  assert.match(reasons[0]!, /not a database/);
});
