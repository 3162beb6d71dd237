// Turn-based games: a pace chosen at creation and stored with the game, deadlines stored and
// swept with an injected clock (a missed move played by the seat's stand-in, a player dropped
// after MISSED_TURNS_DROP misses, one reminder per turn), and a seated game that rests costs its
// row only (no room in memory). Real SQLite files; the engine's own bot on the main thread.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { pino } from 'pino';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { legalMoves, playMove, resolvedToMove } from '../bot-engine/game.ts';
import type { BotAnswer } from '../server/games/bot-scheduler.ts';
import type { BotMover } from '../server/games/room.ts';
import { GameService } from '../server/games/service.ts';
import { copyOfState } from '../server/games/state-stock.ts';
import { type GameSetup, MISSED_TURNS_DROP } from '../server/games/store.ts';
import { everyStore } from './support/every-store.ts';
import { get, injectServer, post } from './server-helpers.ts';
import type { TurnEvent, TurnNotifier } from '../server/games/turn-events.ts';
import { Metrics } from '../server/metrics.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import { withRatedResult } from '../server/games/rated-end.ts';

const DAY = 86_400_000;
const log = pino({ level: 'silent' });

/** The engine's greedy bot, searched on the main thread (the pool is not the point here). */
const engineBot: BotMover = {
  async move(state, level, seed): Promise<BotAnswer> {
    const move = resolvedToMove(state, chooseMove(state, 'greedy', seed));
    const next = copyOfState(state);
    const outcome = playMove(next, move);
    if ('error' in outcome) throw new Error(outcome.error);
    return { move, source: 'search', level, hitDeadline: false, elapsedMs: 1, played: { next, outcome } };
  },
};

function recorder(): TurnNotifier & { turns: TurnEvent[]; reminders: TurnEvent[] } {
  const turns: TurnEvent[] = [];
  const reminders: TurnEvent[] = [];
  return { turns, reminders, yourTurn: (e) => turns.push(e), reminder: (e) => reminders.push(e), challenged: () => {} };
}

function tempDb(): { path: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-turn-based-'));
  return { path: join(dir, 'games.db'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function service(store: SqliteStore, notifier: TurnNotifier, clock: { now: number }): GameService {
  const games = new GameService({ store, bots: engineBot, log, metrics: new Metrics(), maxGames: 50, overloaded: () => null, turns: notifier, now: () => clock.now });
  games.resumeBots();
  return games;
}

test('a turn-based game: pace stored and shown, the first turn told, a rested game leaves memory and loads when opened', async () => {
  const db = tempDb();
  const store = new SqliteStore({ path: db.path });
  const notifier = recorder();
  const clock = { now: Date.now() };
  const games = service(store, notifier, clock);
  try {
    const room = await games.create({ seats: [{ kind: 'person' }, { kind: 'person' }], pace: { kind: 'turnBased', moveDays: 3 } });
    assert.deepEqual(room.view(null).clock.pace, { kind: 'turnBased', moveDays: 3 });
    assert.equal(room.setup.clock.turnSeconds, null, 'no clock of seconds');
    await room.join('Ann', 0, false, 'p_ann');
    assert.equal(notifier.turns.length, 0, 'nobody is told before the game starts');
    await room.join('Ben', 1, false, 'p_ben');
    assert.equal(room.status, 'playing');
    const [first] = notifier.turns;
    assert.equal(first.playerId, 'p_ann');
    assert.equal(first.gameId, room.id);
    assert.equal(first.turn, 0);
    assert.ok(first.deadline !== null && Math.abs(first.deadline - (Date.now() + 3 * DAY)) < 5000, 'three days from the start');
    assert.equal(room.view(null).clock.deadline, first.deadline);

    const stored = await store.get(room.id);
    assert.deepEqual(stored?.setup.pace, { kind: 'turnBased', moveDays: 3 });
    const rows = store.database.prepare('SELECT pace, move_ms, deadline_at FROM games WHERE id = ?').get(room.id) as Record<string, unknown>;
    assert.equal(rows.pace, 'turnBased');
    assert.equal(Number(rows.move_ms), 3 * DAY);
    assert.ok(Math.abs(Number(rows.deadline_at) - first.deadline) < 1000, 'the stored deadline is the one shown (the seat write and the room read the time apart)');

    // Nobody connected, a person to move: the sweep lets the room go.
    assert.equal(games.loaded(room.id), room);
    await games.sweep();
    assert.equal(games.loaded(room.id), undefined, 'no room in memory');
    assert.equal(games.inMemory, 0);

    // Opening it loads it; Ann's move passes the turn to Ben, who is told.
    const again = await games.room(room.id);
    assert.ok(again && again !== room);
    const played = await again.play(0, legalMoves(again.state)[0], 0);
    assert.ok(!('error' in played), JSON.stringify(played));
    assert.equal(notifier.turns.at(-1)?.playerId, 'p_ben');
    assert.equal(notifier.turns.at(-1)?.turn, again.turn);
    const record = await games.room(room.id);
    assert.equal(record, again);
  } finally {
    games.close();
    await store.close();
    db.done();
  }
});

test('deadlines with an injected clock: one reminder per turn, the stand-in plays a missed move, the third miss drops the player', async () => {
  const db = tempDb();
  const store = new SqliteStore({ path: db.path });
  const notifier = recorder();
  const clock = { now: Date.now() };
  const games = service(store, notifier, clock);
  try {
    const room = await games.create({ seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], pace: { kind: 'turnBased', moveDays: 1 } });
    await room.join('Ann', 0, false, 'p_ann');
    await room.join('Ben', 1, false, 'p_ben');
    const id = room.id;
    await games.sweep();
    assert.equal(games.loaded(id), undefined, 'resting: out of memory');

    // A day less five hours later: a quarter of the time is left, Ann is reminded once.
    clock.now += DAY - 5 * 3_600_000;
    await games.sweep();
    await games.sweep();
    assert.equal(notifier.reminders.length, 1, 'one reminder for the turn, however many sweeps');
    assert.deepEqual({ ...notifier.reminders[0], deadline: undefined }, { playerId: 'p_ann', gameId: id, turn: 0, deadline: undefined });
    assert.equal(games.loaded(id), undefined, 'a reminder loads no room');

    // Each of Ann's deadlines passes: her stand-in plays, Ben moves himself, the bot at once.
    for (let miss = 1; miss <= MISSED_TURNS_DROP; miss++) {
      const before = (await store.get(id))?.moves.length ?? 0;
      clock.now = Date.now() + DAY + 1000;
      await games.sweep();
      await until(async () => ((await store.get(id))?.moves.length ?? 0) > before, `the stand-in's move ${miss}`);
      const stored = await store.get(id);
      assert.equal(stored?.marks?.missed[0], miss, `miss ${miss} counted once`);
      const loaded = await games.room(id);
      assert.ok(loaded);
      if (miss < MISSED_TURNS_DROP) {
        assert.equal(loaded.view(null).seats[0].standIn, null, 'the stand-in played one move and let the seat go');
        await until(() => loaded.state.currentPlayer === 1 && !loaded.busy, 'Ben to move');
        const played = await loaded.play(1, legalMoves(loaded.state)[0], loaded.turn);
        assert.ok(!('error' in played), JSON.stringify(played));
        await until(() => loaded.state.currentPlayer === 0 && !loaded.busy, 'the bot to move at once, then Ann');
        assert.equal(notifier.turns.at(-1)?.playerId, 'p_ann');
      } else {
        assert.equal(loaded.view(null).seats[0].standIn, 'dropped');
        assert.ok(stored?.marks?.droppedAt[0], 'dropped, and when');
      }
    }
    // Dropped: Ann may not move any more, and the bot plays her turns at once.
    const loaded = await games.room(id);
    assert.ok(loaded);
    await until(() => loaded.state.currentPlayer === 1 && !loaded.busy, "Ben's turn after Ann's bot");
    const refused = await loaded.play(0, legalMoves(loaded.state)[0], loaded.turn);
    assert.equal('error' in refused && refused.error, 'not_your_turn');
  } finally {
    games.close();
    await store.close();
    db.done();
  }
});

test('a restart between a missed deadline and its move plays it once, and counts it once', async () => {
  const db = tempDb();
  const clock = { now: Date.now() };
  let store = new SqliteStore({ path: db.path });
  let games = service(store, recorder(), clock);
  const room = await games.create({ seats: [{ kind: 'person' }, { kind: 'person' }], pace: { kind: 'turnBased', moveDays: 2 } });
  await room.join('Ann', 0, false, 'p_ann');
  await room.join('Ben', 1, false, 'p_ben');
  const id = room.id;
  games.close();
  // The miss is counted, and the server stops before the stand-in's move is stored.
  await store.update(id, { name: 'missed_turn', apply: () => ({ marks: { missed: [1, 0], missedTurn: 0, remindedTurn: -1, droppedAt: [null, null] } }) });
  // Ann's two days passed while the server was down.
  store.database.prepare('UPDATE games SET last_activity_at = last_activity_at - ? WHERE id = ?').run(2 * DAY + 1000, id);
  await store.close();

  store = new SqliteStore({ path: db.path });
  games = service(store, recorder(), clock);
  try {
    clock.now = Date.now();
    await games.restore();
    await until(async () => ((await store.get(id))?.moves.length ?? 0) > 0, 'the missed move, played after the restart');
    await games.sweep();
    await games.sweep();
    const stored = await store.get(id);
    assert.equal(stored?.marks?.missed[0], 1, 'counted once');
    const seats = stored?.moves.length ?? 0;
    assert.ok(seats >= 1 && seats <= 2, 'one placement (and any discards it caused)');
    const loaded = await games.room(id);
    assert.equal(loaded?.state.currentPlayer, 1, "Ben's turn: Ann's move was played once");
  } finally {
    games.close();
    await store.close();
    db.done();
  }
});

test('a rated turn-based game places a dropped player last, whatever their score', () => {
  const setup = { rated: true, seats: [{ kind: 'person' as const }, { kind: 'person' as const }, { kind: 'person' as const }] } as Parameters<typeof withRatedResult>[0];
  const reasons = ['dropped', null, null] as const;
  const clock = { reason: (s: number) => reasons[s], leftAt: (s: number) => (s === 0 ? 1000 : null) };
  const end = withRatedResult(setup, { abandoned: false, scores: [90, 40, 60] }, clock, { players: ['p_a', 'p_b', 'p_c'], onTurn: 1, expired: false, now: 5000 });
  assert.deepEqual(end.rated?.ranks, [3, 2, 1]);
});

test('old rows read as live, and listings can ask for a pace', async () => {
  const db = tempDb();
  const store = new SqliteStore({ path: db.path });
  const games = service(store, recorder(), { now: Date.now() });
  try {
    const live = await games.create({ seats: [{ kind: 'person' }, { kind: 'person' }] });
    const slow = await games.create({ seats: [{ kind: 'person' }, { kind: 'person' }], pace: { kind: 'turnBased', moveDays: 7 } });
    assert.equal(live.view(null).clock.pace, undefined, 'live: no pace shown');
    const ids = async (pace: 'live' | 'turnBased') => (await store.list({ finished: false, pace })).games.map((g) => ('setup' in g ? g.setup.id : g.id));
    assert.deepEqual(await ids('live'), [live.id]);
    assert.deepEqual(await ids('turnBased'), [slow.id]);
    const row = store.database.prepare('SELECT pace, move_ms FROM games WHERE id = ?').get(live.id) as Record<string, unknown>;
    assert.deepEqual({ ...row }, { pace: 'live', move_ms: null });
  } finally {
    games.close();
    await store.close();
    db.done();
  }
});

// Every backend (memory, SQLite, SQLite with its writer thread, PostgreSQL): the pace stored,
// the deadline moved by a move's own write, due turns found soonest first, the marks kept.
const every = everyStore('turnbased');
for (const [name, make] of every.stores) {
  every.test(`${name} store: turn-based deadlines are stored, moved by each move, and found when due`, async () => {
    const store = await make();
    const base = { createdAt: new Date().toISOString(), seed: 's', rules: { tinyCity: false, farmers: '3rd' as const }, clock: { turnSeconds: null, graceSeconds: 60 }, standIn: 'heuristic' as const };
    const people: GameSetup['seats'] = [{ kind: 'person' }, { kind: 'person' }];
    const seated = [
      { name: 'Ann', tokenHash: 'a'.repeat(64) },
      { name: 'Ben', tokenHash: 'b'.repeat(64) },
    ];
    await store.create({ ...base, id: 'slow', seats: people, pace: { kind: 'turnBased', moveDays: 1 } }, seated);
    await store.create({ ...base, id: 'slower', seats: people, pace: { kind: 'turnBased', moveDays: 2 } }, seated);
    await store.create({ ...base, id: 'open', seats: people, pace: { kind: 'turnBased', moveDays: 1 } }, [seated[0], null]);
    await store.create({ ...base, id: 'solo', seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], pace: { kind: 'turnBased', moveDays: 1 } }, [seated[0], { name: 'Bot', tokenHash: null }]);
    await store.create({ ...base, id: 'live', seats: people }, seated);
    const created = Date.parse(base.createdAt);
    const due = await store.dueTurns(created + 3 * DAY, 10);
    assert.deepEqual(
      due.map((d) => [d.id, d.deadline - created, d.turn, d.marks]),
      [
        ['slow', DAY, 0, null],
        ['slower', 2 * DAY, 0, null],
      ],
      'seated turn-based games with two people, soonest first; not the open seat, the solo game or the live one',
    );
    assert.deepEqual(
      (await store.dueTurns(created + DAY, 10)).map((d) => d.id),
      ['slow'],
    );
    const before = Date.now();
    await store.appendMoves('slow', [{ tile: 'V', x: 1, y: 0, rotation: 0, meeple: null }], null);
    const [moved] = (await store.dueTurns(Date.now() + 3 * DAY, 10)).filter((d) => d.id === 'slow');
    assert.ok(moved.deadline >= before + DAY && moved.deadline <= Date.now() + DAY, 'the move moved the deadline');
    assert.equal(moved.turn, 1);
    const marks = { missed: [1, 0], missedTurn: 1, remindedTurn: 0, droppedAt: [null, null] };
    await store.update('slow', { name: 'missed_turn', apply: (m) => (m.marks ? null : { marks }) });
    assert.deepEqual((await store.get('slow'))?.marks, marks);
    // A change reads them as stored (a second miss or reminder must see the first).
    let read: unknown;
    await store.update('slow', {
      name: 'turn_reminder',
      apply: (m) => {
        read = m.marks;
        return null;
      },
    });
    assert.deepEqual(read, marks, 'a change reads the stored marks');
    assert.deepEqual((await store.dueTurns(Date.now() + 3 * DAY, 10)).find((d) => d.id === 'slow')?.marks, marks);
    assert.deepEqual((await store.get('live'))?.setup.pace, undefined, 'a live game has no pace');
    const listed = (await store.list({ finished: false, pace: 'live' })).games.map((g) => ('setup' in g ? g.setup.id : g.id));
    assert.deepEqual(listed, ['live']);
    await store.close();
  });
}

test('HTTP: the pace is checked at creation and shown in the summary, the open games and the record', async () => {
  const { app, base } = await injectServer();
  try {
    const people = [{ kind: 'person' }, { kind: 'person' }];
    for (const pace of [{ kind: 'turnBased', moveDays: 4 }, { kind: 'turnBased' }, { kind: 'slow' }, { kind: 'live', moveDays: 1 }]) {
      const refused = await post(base, '/api/games', { seats: people, pace });
      assert.equal(refused.status, 400, JSON.stringify(pace));
      assert.equal(refused.body.code, 'bad_request');
    }
    const clocked = await post(base, '/api/games', { seats: people, pace: { kind: 'turnBased', moveDays: 2 }, clock: { turnSeconds: 30 } });
    assert.equal(clocked.status, 400);
    assert.match(clocked.body.message, /days per move/);
    const live = await post(base, '/api/games', { seats: people, pace: { kind: 'live' }, listed: true });
    assert.equal(live.status, 201);
    assert.equal(live.body.clock.pace, undefined);
    assert.equal(live.body.clock.turnSeconds, 120, 'a live game is as before');
    const slow = await post(base, '/api/games', { seats: people, pace: { kind: 'turnBased', moveDays: 5 }, listed: true });
    assert.equal(slow.status, 201);
    assert.deepEqual(slow.body.clock, { pace: { kind: 'turnBased', moveDays: 5 }, turnSeconds: null, deadline: null });
    const open = await get(base, '/api/games');
    const listed = open.body.games.find((g: any) => g.id === slow.body.id);
    assert.deepEqual(listed.clock.pace, { kind: 'turnBased', moveDays: 5 });
    const one = await get(base, `/api/games/${slow.body.id}`);
    assert.deepEqual(one.body.clock.pace, { kind: 'turnBased', moveDays: 5 });
    // Its record says how it was played (read once the game is over).
    const room = await app.games.room(slow.body.id);
    assert.ok(room);
    await room.abandon('test');
    const record = await get(base, `/api/games/${slow.body.id}/record`);
    assert.equal(record.status, 200);
    assert.deepEqual(record.body.pace, { kind: 'turnBased', moveDays: 5 });
    // The turn-based rating is asked for by pace.
    assert.equal((await get(base, '/api/leaderboard?pace=turnBased')).status, 200);
    assert.equal((await get(base, '/api/leaderboard?pace=slow')).status, 400);
    assert.equal((await get(base, '/api/players/p_annAAAAAAAAAAAAAAAAAAA/ratings?pace=turnBased')).status, 200);
  } finally {
    await app.close();
  }
});

for (const [name, make] of every.backends) {
  every.test(`${name}: a rated turn-based game moves the turn-based rating only, a live one the live rating only`, async () => {
    const { games: store, ratings } = await make();
    const ann = 'p_annAAAAAAAAAAAAAAAAAAA';
    const bo = 'p_boBBBBBBBBBBBBBBBBBBBB';
    const base: GameSetup = {
      id: 'tb',
      createdAt: new Date().toISOString(),
      seed: 'tb',
      rules: { tinyCity: false, farmers: '3rd' },
      seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'expert' }],
      clock: { turnSeconds: null, graceSeconds: 60 },
      standIn: 'heuristic',
      rated: true,
    };
    const holders = [
      { name: 'Ann', tokenHash: null, playerId: ann },
      { name: 'Bo', tokenHash: null, playerId: bo },
      { name: 'expert bot 3', tokenHash: null, playerId: 'bot:expert' },
    ];
    const players = [ann, bo, 'bot:expert'];
    await store.create({ ...base, pace: { kind: 'turnBased', moveDays: 3 } }, holders);
    await store.appendMoves('tb', [], { abandoned: false, scores: [40, 52, 31], rated: { players, ranks: [2, 1, 3], pool: 'turnBased' } });
    assert.equal((await ratings.ratings(players)).size, 0, 'the live rating has not moved');
    const turnBased = await ratings.ratings(players, 'turnBased');
    assert.equal(turnBased.size, 3);
    assert.equal(turnBased.get(bo)?.games, 1);
    assert.deepEqual(
      (await ratings.history(bo, 10, 'turnBased')).map((c) => [c.gameId, c.rank]),
      [['tb', 1]],
    );
    assert.deepEqual(await ratings.history(bo, 10), []);
    assert.deepEqual(
      (await ratings.leaderboard(10, 0, undefined, 'turnBased')).map((r) => r.playerId),
      ['bot:expert'],
      'the bot level is listed in the turn-based pool at once (people need more games)',
    );
    assert.deepEqual(await ratings.leaderboard(10, 0), []);

    await store.create({ ...base, id: 'live' }, holders);
    await store.appendMoves('live', [], { abandoned: false, scores: [60, 52, 31], rated: { players, ranks: [1, 2, 3] } });
    assert.equal((await ratings.ratings([ann])).get(ann)?.games, 1, 'the live game moved the live rating');
    assert.equal((await ratings.ratings([ann], 'turnBased')).get(ann)?.games, 1, 'and left the turn-based one');
    await store.close();
  });
}

test('a turn-based game’s rated end names its pool; a live one names none', () => {
  const seats = [{ kind: 'person' as const }, { kind: 'person' as const }];
  const clock = { reason: () => null, leftAt: () => null };
  const ending = { players: ['p_a', 'p_b'], onTurn: 0, expired: false, now: 1 };
  const live = withRatedResult({ rated: true, seats } as GameSetup, { abandoned: false, scores: [3, 4] }, clock, ending);
  assert.equal(live.rated?.pool, undefined);
  const slow = withRatedResult({ rated: true, seats, pace: { kind: 'turnBased', moveDays: 2 } } as GameSetup, { abandoned: false, scores: [3, 4] }, clock, ending);
  assert.equal(slow.rated?.pool, 'turnBased');
});

for (const [name, make] of every.stores) {
  every.test(`${name} store: a player's games include the seats kept for them only when asked`, async () => {
    const store = await make();
    const base = { createdAt: new Date().toISOString(), seed: 's', rules: { tinyCity: false, farmers: '3rd' as const }, clock: { turnSeconds: null, graceSeconds: 60 }, standIn: 'heuristic' as const };
    const kept: GameSetup['seats'] = [{ kind: 'person' }, { kind: 'person', player: { id: 'p_ben', name: 'Ben' } }];
    await store.create({ ...base, id: 'challenge', seats: kept }, [{ name: 'Ann', tokenHash: null, playerId: 'p_ann' }, null]);
    await store.create({ ...base, id: 'other', seats: [{ kind: 'person' }, { kind: 'person' }] }, [{ name: 'Ann', tokenHash: null, playerId: 'p_ann' }, null]);
    const ids = async (playerId: string, invited: boolean) => (await store.list({ finished: false, playerId, invited })).games.map((g) => ('setup' in g ? g.setup.id : g.id)).sort();
    assert.deepEqual(await ids('p_ben', true), ['challenge']);
    assert.deepEqual(await ids('p_ben', false), [], 'held seats only unless asked');
    assert.deepEqual(await ids('p_ann', true), ['challenge', 'other']);
    assert.deepEqual((await store.get('challenge'))?.setup.seats[1], { kind: 'person', player: { id: 'p_ben', name: 'Ben' } });
    await store.close();
  });
}
