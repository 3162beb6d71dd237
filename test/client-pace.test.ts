// The client's words for a game's pace and a turn-based move's time left (lists, the table).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paceText, seatRole, timeLeftText } from '../client/src/text.ts';

test('a pace in words: live, or turn-based with its days a move', () => {
  assert.equal(paceText({}), 'live');
  assert.equal(paceText(undefined), 'live');
  assert.equal(paceText({ pace: { kind: 'turnBased', moveDays: 1 } }), 'turn-based · 1 day a move');
  assert.equal(paceText({ pace: { kind: 'turnBased', moveDays: 3 } }), 'turn-based · 3 days a move');
});

test('time left on a turn-based move: days and hours, then hours and minutes', () => {
  const H = 3_600_000;
  assert.equal(timeLeftText(2 * 24 * H + 5 * H + 59_000), '2 d 5 h');
  assert.equal(timeLeftText(5 * H + 30 * 60_000), '5 h 30 min');
  assert.equal(timeLeftText(59 * 60_000), '59 min');
  assert.equal(timeLeftText(-1000), '0 min', 'a passed deadline shows no negative time');
});

test('a dropped seat says so', () => {
  const seat = { seat: 0, name: 'Ann', kind: 'person', connected: false, standIn: 'dropped', score: 0, followers: 7, points: { city: 0, road: 0, farm: 0, monastery: 0 } } as const;
  assert.match(seatRole(seat), /dropped/);
});

test("your games: the player's turns first (soonest deadline first), then challenges, then the rest newest first", async () => {
  const { mergeMyGames } = await import('../client/src/players/my-games.ts');
  const games = [
    { gameId: 'new', seat: 0, name: 'Ada', at: 50 },
    { gameId: 'slow', seat: 0, name: 'Ada', at: 10, yourTurn: true, deadline: 9000 },
    { gameId: 'kept', seat: 1, name: '', at: 20, invited: true },
    { gameId: 'soon', seat: 1, name: 'Ada', at: 5, yourTurn: true, deadline: 1000 },
    { gameId: 'theirs', seat: 0, name: 'Ada', at: 40, yourTurn: false, deadline: 500 },
  ];
  assert.deepEqual(
    mergeMyGames(games, []).map((g) => g.gameId),
    ['soon', 'slow', 'kept', 'new', 'theirs'],
  );
});

test('since you last looked: the others’ moves after your last one, listed in words', async () => {
  const { sinceYourLastMove, showsSince, sinceList } = await import('../client/src/game/since-moves.ts');
  const move = (turn: number, seat: number, x: number) => ({ turn, seat, tile: 'V', move: { x, y: 0, rotation: 0, meeple: null }, events: [], discarded: [] }) as any;
  const history = [move(0, 0, 1), move(1, 1, 2), move(2, 2, 3), move(3, 0, 4), move(4, 1, 5), move(5, 2, 6)];
  assert.deepEqual(
    sinceYourLastMove(history, 0).map((m) => m.turn),
    [4, 5],
    'after my last move (turn 3)',
  );
  assert.deepEqual(
    sinceYourLastMove(history, 2).map((m) => m.turn),
    [],
    'my move was the last',
  );
  assert.deepEqual(
    sinceYourLastMove(history.slice(0, 2), 2).map((m) => m.turn),
    [0, 1],
    'not moved yet: everything so far',
  );
  assert.deepEqual(sinceYourLastMove(history, null), [], 'a watcher');
  const seats = ['Ann', 'Ben', 'Cy'].map((name, seat) => ({
    seat,
    name,
    kind: 'person',
    connected: false,
    standIn: null,
    score: 0,
    followers: 7,
    points: { city: 0, road: 0, farm: 0, monastery: 0 },
  })) as any;
  const view = (pace: unknown, you: number | null, status = 'playing') => ({ clock: { ...(pace ? { pace } : {}), turnSeconds: null, deadline: null }, you, status }) as any;
  const two = sinceYourLastMove(history, 0);
  assert.equal(showsSince(view({ kind: 'turnBased', moveDays: 2 }, 0), two), true);
  assert.equal(showsSince(view(undefined, 0), two), false, 'a live game has its own log');
  assert.equal(showsSince(view({ kind: 'turnBased', moveDays: 2 }, 0, 'finished'), two), false);
  assert.equal(showsSince(view({ kind: 'turnBased', moveDays: 2 }, 0), []), false);
  const html = sinceList(two, seats, 1);
  assert.match(html, /2 moves by the others/);
  assert.match(html, /<li>Ben placed[^<]*<\/li><li aria-current="step" class="now">Cy placed/);
});
