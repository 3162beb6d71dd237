// The table's rules (server/games/table.ts) as a reducer: given a setup, a state and a move, the
// next state and its record entries, or why not; the seats (server/games/seats.ts) as plain
// data; and what a room does with them (a finished game's record read with one store read and
// no room, one serialisation per distinct view).
import assert from 'node:assert/strict';
import test from 'node:test';
import { pino } from 'pino';
import { legalMoves, type Move, newGame, playMove } from '../bot-engine/game.ts';
import { replayRecord } from '../bot-engine/record.ts';
import { fnv1a, mixSeed } from '../bot-engine/rng.ts';
import type { GameState } from '../bot-engine/state.ts';
import { FinishedTable, recordOf } from '../server/games/records.ts';
import { type BotMover, Room, type Subscriber } from '../server/games/room.ts';
import { initialHolders, issueToken, recordNames, Seats } from '../server/games/seats.ts';
import { GameService } from '../server/games/service.ts';
import type { GameSetup, GameStore } from '../server/games/store.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { takeSeat } from '../server/games/store-operations.ts';
import { abandonAt, appliedOf, applyMove, botLevel, botSeed, hintSeed, tableStatus, turnProblem } from '../server/games/table.ts';
import { Metrics } from '../server/metrics.ts';
import { type ViewFrames, viewInputOf } from '../server/games/view.ts';

const setup = (seats: GameSetup['seats'] = [{ kind: 'person' }, { kind: 'bot', level: 'greedy' }], id = 't1'): GameSetup => ({
  id,
  createdAt: '2026-11-25T10:00:00.000Z',
  seed: `seed-${id}`,
  rules: { tinyCity: false, farmers: '3rd' },
  seats,
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
});
const start = (s: GameSetup) => newGame({ players: s.seats.length, rules: s.rules, seed: s.seed });
const bytes = (s: GameState) => Buffer.from(s.buffer);
const firstLegal = (s: GameState): Move => legalMoves(s)[0];

test('status: waiting until every seat is held, playing, finished once the state is', () => {
  const s = setup();
  const state = start(s);
  assert.equal(tableStatus(state, false), 'waiting');
  assert.equal(tableStatus(state, true), 'playing');
  const { next } = abandonAt(s, state);
  assert.equal(tableStatus(next, true), 'finished');
});

test('turn rules: not started, game over, stale turn, not your turn (a bot seat, another seat), else allowed', () => {
  const s = setup([{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const state = start(s);
  const at = { setup: s, state, turn: 0, seated: true };
  assert.equal(turnProblem({ ...at, seated: false }, 0, 0)?.error, 'not_started');
  assert.equal(turnProblem({ ...at, state: abandonAt(s, state).next }, 0, 0)?.error, 'game_over');
  assert.deepEqual(turnProblem(at, 0, 3), { error: 'stale_turn', message: 'turn is 0, the frame quoted 3' });
  assert.deepEqual(turnProblem(at, 1, 0), { error: 'not_your_turn', message: "it is seat 0's turn" });
  assert.equal(turnProblem(at, 2, 0)?.error, 'not_your_turn');
  assert.equal(turnProblem(at, 0, 0), null);
  // A stale turn is stale whoever asks: a repeated click never plays twice.
  assert.equal(turnProblem({ ...at, turn: 1 }, 1, 0)?.error, 'stale_turn');
});

test('bots: which seat a bot plays and at what level; seeds are fixed by game, turn and seat', () => {
  const s = setup([{ kind: 'person' }, { kind: 'bot', level: 'expert' }]);
  assert.equal(botLevel(s, 1, null, false), 'expert');
  assert.equal(botLevel(s, 0, null, true), null, 'a person plays their own seat');
  assert.equal(botLevel(s, 0, 'clock', true), 'heuristic', 'the stand-in level');
  assert.equal(botLevel(s, 0, 'away', false), null, 'no stand-in plays to an empty table');
  assert.equal(botSeed(s, 4, 1), mixSeed(fnv1a(s.seed), 4, 1));
  assert.equal(botSeed(s, 4, 1), botSeed(setup(s.seats), 4, 1));
  assert.notEqual(botSeed(s, 4, 1), botSeed(s, 5, 1));
  assert.notEqual(hintSeed(s, 4, 0), botSeed(s, 4, 0));
});

test('what a view is built from: names, player ids, kinds, bot levels, bots always connected, stand-ins, the clock, hints as they were', () => {
  const s = { ...setup([{ kind: 'person' }, { kind: 'bot', level: 'random' }, { kind: 'person' }]), hints: true, clock: { turnSeconds: 30, graceSeconds: 60 } };
  const state = start(s);
  const names = ['Ann', 'random bot 2', null];
  const hints = [1, 0, 2];
  const input = viewInputOf({
    setup: s,
    state,
    status: 'waiting',
    turn: 0,
    name: (i) => names[i],
    playerId: (i) => (i === 0 ? 'p_ann' : undefined),
    connected: (i) => i === 0,
    standIn: (i) => (i === 2 ? 'away' : null),
    botThinking: true,
    deadline: 1234,
    rematch: null,
    abandoned: false,
    hints,
  });
  assert.deepEqual(input.seats, [
    { name: 'Ann', kind: 'person', connected: true, standIn: null, playerId: 'p_ann' },
    { name: 'random bot 2', kind: 'bot', level: 'random', connected: true, standIn: null },
    { name: null, kind: 'person', connected: false, standIn: 'away' },
  ]);
  assert.deepEqual(
    { gameId: input.gameId, rules: input.rules, clock: input.clock, hintsOn: input.hintsOn, botThinking: input.botThinking },
    { gameId: s.id, rules: s.rules, clock: { turnSeconds: 30, deadline: 1234 }, hintsOn: true, botThinking: true },
  );
  hints[2] = 3;
  assert.deepEqual(input.hints, [1, 0, 2], 'a hint taken later does not change a view already built');
});

test('a move: the next state, its record entries and live frame; the state it came from is untouched', () => {
  const s = setup();
  const state = start(s);
  const before = bytes(state);
  const move = firstLegal(state);
  const applied = applyMove(s, state, 0, 0, move);
  assert.ok(!('error' in applied));
  assert.deepEqual(bytes(state), before, 'the given state never changes');
  assert.notDeepEqual(bytes(applied.next), before);
  assert.deepEqual(applied.recorded[0], { tile: applied.last.tile, ...applied.last.move });
  assert.equal(applied.recorded.length, 1 + applied.last.discarded.length);
  assert.deepEqual({ turn: applied.last.turn, seat: applied.last.seat, bot: applied.last.bot }, { turn: 0, seat: 0, bot: undefined });
  assert.equal(applied.end, null);
  // The same move played elsewhere first (a bot's, checked where it was found) gives the same.
  const next = state.clone();
  const outcome = playMove(next, move);
  assert.ok(!('error' in outcome));
  const pre = appliedOf(s, state, next, outcome, 0, 0);
  assert.deepEqual(pre.recorded, applied.recorded);
  assert.deepEqual(pre.last, applied.last);
  assert.deepEqual(bytes(pre.next), bytes(applied.next));
});

test('an illegal move: illegal_move with the engine reason, and nothing changes', () => {
  const s = setup();
  const state = start(s);
  const before = bytes(state);
  const applied = applyMove(s, state, 0, 0, { x: 40, y: 40, rotation: 0, meeple: null });
  assert.deepEqual(applied, { error: 'illegal_move', message: '(40,40) does not touch any tile' });
  assert.deepEqual(bytes(state), before);
});

test("a bot's move: its source, level and time in the frame, marked as a stand-in on a person's seat", () => {
  const s = setup([{ kind: 'person' }, { kind: 'person' }]);
  const state = start(s);
  const applied = applyMove(s, state, 0, 0, firstLegal(state), { source: 'search', level: 'heuristic', elapsedMs: 12.34567 });
  assert.ok(!('error' in applied));
  assert.deepEqual(applied.last.bot, { source: 'search', level: 'heuristic', elapsedMs: 12.346, standIn: true });
});

test('a game played to its last tile: the last move ends it with the final scores; the record replays to them', () => {
  const s = setup([{ kind: 'person' }, { kind: 'person' }]);
  let state = start(s);
  let turn = 0;
  const moves = [];
  for (;;) {
    const applied = applyMove(s, state, turn, state.currentPlayer, firstLegal(state));
    assert.ok(!('error' in applied));
    moves.push(...applied.recorded);
    turn += applied.recorded.length;
    state = applied.next;
    if (applied.end) {
      assert.deepEqual(applied.end, { abandoned: false, scores: [state.score(0), state.score(1)] });
      break;
    }
    assert.equal(tableStatus(state, true), 'playing');
  }
  const record = recordOf({
    setup: s,
    holders: [
      { name: 'A', tokenHash: null },
      { name: 'B', tokenHash: null },
    ],
    moves,
    finished: true,
    end: null,
    rematch: null,
    hints: [],
  });
  assert.deepEqual(replayRecord(record).scores, { A: state.score(0), B: state.score(1) });
});

test('abandoning: scored as it stands on a copy, marked abandoned', () => {
  const s = setup();
  const state = start(s);
  const before = bytes(state);
  const { next, end } = abandonAt(s, state);
  assert.deepEqual(bytes(state), before);
  assert.equal(next.finished, true);
  assert.deepEqual(end, { abandoned: true, scores: [next.score(0), next.score(1)] });
});

test('seats: open seats, join checks, tokens held only as hashes, record names never clash', () => {
  const s = setup([{ kind: 'person' }, { kind: 'bot', level: 'random' }, { kind: 'person' }]);
  const seats = new Seats(initialHolders(s));
  assert.deepEqual(seats.openSeats, [0, 2]);
  assert.equal(seats.full, false);
  assert.equal(seats.name(1), 'random bot 2');
  assert.deepEqual(seats.placeFor('Ann', undefined, undefined, false), { seat: 0, again: false });
  assert.deepEqual(seats.placeFor('Ann', 1, undefined, false), { error: 'no_seat', message: 'seat 1 is not open' });
  assert.equal('error' in seats.placeFor('Ann', undefined, 'old', false), true, "a rematch's seats are kept");
  const { token, holder } = issueToken('Ann');
  assert.notEqual(holder.tokenHash, token);
  seats.set(0, holder);
  assert.equal(seats.seatOf(token), 0);
  assert.equal(seats.seatOf('not a token'), null);
  assert.deepEqual(seats.placeFor('Ann', 2, undefined, false), { error: 'name_taken', message: 'the name "Ann" (or one that looks the same) is taken in this game' });
  for (const lookAlike of ['ANN', '\u0410nn']) assert.equal('error' in seats.placeFor(lookAlike, 2, undefined, false), true, lookAlike);
  assert.deepEqual(seats.placeFor('Ann', 0, 'old', true), { seat: 0, again: true }, 'asking twice for a rematch seat');
  seats.set(2, issueToken('open seat 3').holder);
  assert.equal(seats.full, true);
  assert.deepEqual(seats.placeFor('Cy', undefined, undefined, false), { error: 'no_seat', message: 'no open seat is left' });
  assert.deepEqual(recordNames([null, { name: 'open seat 1', tokenHash: null }]), ['open seat 1*', 'open seat 1']);
});

/** A store that counts its reads. */
function countingReads(store: GameStore): { store: GameStore; reads: () => number } {
  let reads = 0;
  const counted = Object.create(store) as GameStore;
  counted.get = (id) => {
    reads++;
    return store.get(id);
  };
  return { store: counted, reads: () => reads };
}

test("a finished game's record: one store read, no room loaded; a game still played is not_finished", async () => {
  const memory = new MemoryStore();
  const s = setup([{ kind: 'person' }, { kind: 'person' }], 'done');
  const state = start(s);
  const applied = applyMove(s, state, 0, 0, firstLegal(state));
  assert.ok(!('error' in applied));
  const holders = [
    { name: 'A', tokenHash: null },
    { name: 'B', tokenHash: null },
  ];
  await memory.create(s, holders);
  await memory.appendMoves('done', applied.recorded, { abandoned: true, scores: [1, 2] });
  await memory.create(setup(s.seats, 'live'), holders);
  const { store, reads } = countingReads(memory);
  const metrics = new Metrics();
  const games = new GameService({ store, bots: {} as BotMover, log: pino({ level: 'silent' }), metrics, maxGames: 10, overloaded: () => null });
  try {
    const record = await games.finishedRecord('done');
    assert.deepEqual(record, recordOf((await memory.get('done'))!));
    assert.equal(reads(), 1);
    assert.equal(games.inMemory, 0, 'no room was built to read it');
    assert.equal(await games.finishedRecord('live'), 'not_finished');
    assert.equal(await games.finishedRecord('nope'), undefined);
  } finally {
    games.close();
    metrics.close();
  }
});

test('a finished game is read with one store read and no room; a room is built for connecting, with the rematch linked meanwhile', async () => {
  const memory = new MemoryStore();
  const ann = issueToken('Ann');
  const bea = issueToken('Bea');
  const s = setup([{ kind: 'person' }, { kind: 'person' }], 'done');
  await memory.create(s, [ann.holder, bea.holder]);
  const state = start(s);
  const applied = applyMove(s, state, 0, 0, firstLegal(state));
  assert.ok(!('error' in applied));
  await memory.appendMoves('done', applied.recorded, { abandoned: true, scores: [0, 0] });
  const { store, reads } = countingReads(memory);
  const metrics = new Metrics();
  const games = new GameService({ store, bots: {} as BotMover, log: pino({ level: 'silent' }), metrics, maxGames: 10, overloaded: () => null });
  try {
    const read = await games.get('done');
    assert.ok(read instanceof FinishedTable, 'read as a finished table, not a room');
    assert.equal(games.loaded('done'), undefined, 'no room was built');
    assert.equal(reads(), 1);
    assert.deepEqual([read.view().status, read.view().turn, read.openSeats], ['finished', 1, []]);
    assert.deepEqual([read.seatOf(bea.token), read.holderName(1), read.seatOf('not a token')], [1, 'Bea', null]);
    assert.equal(await games.get('done'), read, 'kept: read again from memory');
    assert.equal(reads(), 1);

    const rematch = await games.rematch('done', { token: bea.token });
    assert.deepEqual([rematch.name, rematch.seat], ['Bea', 1]);
    assert.equal((await memory.get('done'))?.rematch, rematch.gameId, 'the link is stored');
    assert.equal(read.view().rematch, rematch.gameId, 'and shown');
    assert.equal(games.loaded('done'), undefined, 'still no room for the finished game');

    const before = reads();
    const room = await games.room('done');
    assert.ok(room instanceof Room);
    assert.equal(reads(), before, 'the room starts from what was read');
    assert.deepEqual([room.status, room.rematch, room.seatOf(ann.token)], ['finished', rematch.gameId, 0]);
    assert.equal(await games.get('done'), room, 'once built, readers get the room');
  } finally {
    games.close();
    metrics.close();
  }
});

test('the finished-game cache: bounded, a game read again after eviction is read from the store, a watched room stays and watchers never get a second one', async () => {
  const memory = new MemoryStore();
  for (const id of ['f1', 'f2', 'f3']) {
    const s = setup([{ kind: 'person' }, { kind: 'person' }], id);
    await memory.create(s, [issueToken('Ann').holder, issueToken('Bea').holder]);
    const state = start(s);
    const applied = applyMove(s, state, 0, 0, firstLegal(state));
    assert.ok(!('error' in applied));
    await memory.appendMoves(id, applied.recorded, { abandoned: true, scores: [0, 0] });
  }
  const { store, reads } = countingReads(memory);
  const metrics = new Metrics();
  const games = new GameService({ store, bots: {} as BotMover, log: pino({ level: 'silent' }), metrics, maxGames: 10, overloaded: () => null, finishedCache: 1 });
  try {
    const watched = await games.room('f1');
    assert.ok(watched instanceof Room);
    watched.subscribe({ seat: null, update: () => {}, chat: () => {} });
    await games.get('f2');
    await games.get('f3');
    assert.equal(games.inMemory, 2, 'f2 left for f3; the watched f1 stays over the bound');
    const before = reads();
    assert.equal(await games.room('f1'), watched, 'the same room: its watchers are not split');
    await games.get('f2');
    assert.equal(reads(), before + 1, 'f2 was evicted: read from the store again');
  } finally {
    games.close();
    metrics.close();
  }
});

test('a broadcast serialises each distinct view once: every watcher gets the same frame text', async () => {
  const store = new MemoryStore();
  const room = await Room.create(setup([{ kind: 'person' }, { kind: 'person' }], 'b1'), { store, bots: {} as BotMover, log: pino({ level: 'silent' }) });
  const frames: unknown[][] = [[], [], []];
  // Each watcher asks for the version 1 frame, as a connection that said hello without a version does.
  const watchers: Subscriber[] = frames.map((got) => ({ seat: null, update: (built: ViewFrames) => got.push(built.state(false)), chat: () => {} }));
  for (const w of watchers) room.subscribe(w);
  const stringify = JSON.stringify;
  let stateFrames = 0;
  JSON.stringify = ((value: unknown, ...rest: never[]) => {
    if (value && typeof value === 'object' && (value as { type?: string }).type === 'state') stateFrames++;
    return stringify(value, ...rest);
  }) as typeof JSON.stringify;
  try {
    const joined = await room.join('Ann');
    assert.ok(!('error' in joined));
  } finally {
    JSON.stringify = stringify;
  }
  assert.equal(stateFrames, 1, 'one serialisation for three watchers');
  for (const got of frames) {
    assert.equal(got.length, 2);
    assert.equal(typeof got[1], 'string');
    assert.equal(got[1], frames[0][1]);
  }
  const frame = JSON.parse(frames[0][1] as string);
  assert.equal(frame.type, 'state');
  assert.deepEqual(frame.view, room.view(null));
  assert.equal(frame.last, null);
  room.close();
});

test('a game played elsewhere, read here: its summary view from one store read and one replay, no room, as a room would show it', async () => {
  const memory = new MemoryStore();
  const s = { ...setup([{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], 'away'), clock: { turnSeconds: 60, graceSeconds: 5 }, hints: false };
  let state = start(s);
  const moves = [];
  for (let turn = 0; turn < 4; ) {
    const applied = applyMove(s, state, turn, state.currentPlayer, firstLegal(state));
    assert.ok(!('error' in applied));
    moves.push(...applied.recorded);
    turn += applied.recorded.length;
    state = applied.next;
  }
  await memory.create(s, [{ name: 'Ann', tokenHash: null }, null, { name: 'random bot 3', tokenHash: null }]);
  await memory.appendMoves('away', moves, null);
  const { store, reads } = countingReads(memory);
  const metrics = new Metrics();
  const log = pino({ level: 'silent' });
  const games = new GameService({ store, bots: {} as BotMover, log, metrics, maxGames: 10, overloaded: () => null });
  try {
    const shown = await games.peek('away');
    assert.ok(shown && !(shown instanceof Room), 'no room is built to read it');
    assert.equal(reads(), 1);
    const room = Room.restore((await memory.get('away'))!, { store: memory, bots: {} as BotMover, log });
    room.close();
    assert.deepEqual(shown.view(null), room.view(null));
    assert.deepEqual(shown.openSeats, [1]);
    // Every seat taken: playing, with a turn clock that runs only where the game is played.
    await takeSeat(memory, 'away', 1, { name: 'Bo', tokenHash: null });
    const playing = await games.peek('away');
    const live = Room.restore((await memory.get('away'))!, { store: memory, bots: {} as BotMover, log });
    live.close();
    assert.equal(playing?.view(null).status, 'playing');
    assert.deepEqual(playing?.view(null), live.view(null));
  } finally {
    games.close();
    metrics.close();
  }
});
