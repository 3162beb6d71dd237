// The browser client's turn notifications without a browser: what the service worker shows for a
// push (a player's turns folded into one notification, a reminder apart, time left in words),
// the device names in the player's list, and the count before the tab's title.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deviceLabel, foldPush, timeLeft, titled } from '../client/src/push-fold.ts';
import type { PushGame } from '../server/wire/push.ts';

const NOW = Date.parse('2026-11-28T08:00:00Z');
const H = 3_600_000;
const game = (gameId: string, turn: number, deadline: number | null): PushGame => ({ gameId, turn, deadline, url: `/#/g/${gameId}` });

test('time left in words', () => {
  assert.equal(timeLeft(null, NOW), '');
  assert.equal(timeLeft(NOW + 30_000, NOW), 'under a minute left');
  assert.equal(timeLeft(NOW - 5_000, NOW), 'under a minute left');
  assert.equal(timeLeft(NOW + 45 * 60_000, NOW), '45 min left');
  assert.equal(timeLeft(NOW + 47 * H + 59 * 60_000, NOW), '47 h left');
  assert.equal(timeLeft(NOW + 3 * 24 * H, NOW), '3 days left');
});

test("a player's turns fold into one notification: new games added, a newer turn of a game replaces its older one, a game past its deadline leaves", () => {
  const one = foldPush({ kind: 'turn', games: [game('a', 3, NOW + 5 * H)], waiting: 1 }, [], NOW);
  assert.deepEqual(one, { title: 'Your turn', body: 'A game waits for your move (5 h left).', tag: 'tessera-turns', url: '/#/g/a', games: [game('a', 3, NOW + 5 * H)] });

  const two = foldPush({ kind: 'turn', games: [game('b', 8, null)], waiting: null }, one.games, NOW);
  assert.equal(two.title, 'Your turn in 2 games');
  assert.equal(two.body, 'The soonest has 5 h left.');
  assert.equal(two.url, '/#/', 'several games: the lobby’s "Your games"');
  assert.deepEqual(
    two.games.map((g) => g.gameId),
    ['a', 'b'],
  );

  const newer = foldPush({ kind: 'turn', games: [game('a', 5, NOW + 20 * H)], waiting: null }, [game('a', 3, NOW + 5 * H), game('b', 8, null)], NOW);
  assert.deepEqual(
    newer.games.map((g) => `${g.gameId}@${g.turn}`),
    ['a@5', 'b@8'],
  );
  assert.equal(newer.body, 'The soonest has 20 h left.');

  const lapsed = foldPush({ kind: 'turn', games: [game('c', 1, null)], waiting: null }, [game('a', 3, NOW - 1)], NOW);
  assert.deepEqual(
    lapsed.games.map((g) => g.gameId),
    ['c'],
    'played by its stand-in meanwhile',
  );
  assert.equal(lapsed.title, 'Your turn');

  const counted = foldPush({ kind: 'turn', games: [game('d', 2, null)], waiting: 4 }, [], NOW);
  assert.equal(counted.title, 'Your turn in 4 games', 'the server’s count, where it is more than this device was told');
});

test('a reminder is its own notification, per game', () => {
  const shown = foldPush({ kind: 'reminder', games: [game('r', 6, NOW + 2 * H)], waiting: null }, [game('a', 3, null)], NOW);
  assert.deepEqual(shown, { title: 'Your move is due soon', body: '2 h left to move before a bot plays for you.', tag: 'tessera-reminder-r', url: '/#/g/r', games: [game('r', 6, NOW + 2 * H)] });
});

test('a challenge is its own notification, per game, saying who challenged the player', () => {
  const challenge = { gameId: 'c', turn: 0, deadline: NOW + 14 * 24 * H, url: '/#/g/c' };
  const by = foldPush({ kind: 'challenge', games: [challenge], waiting: 2, by: 'Ann' }, [game('a', 3, null)], NOW);
  assert.deepEqual(by, { title: 'Ann challenges you', body: 'A seat is kept for you: open the game to take it.', tag: 'tessera-challenge-c', url: '/#/g/c', games: [challenge] });
  assert.equal(foldPush({ kind: 'challenge', games: [challenge], waiting: null, by: null }, [], NOW).title, 'You are challenged to a game', 'made without a session');
});

test("a device's name from its browser", () => {
  assert.equal(deviceLabel('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'), 'Chrome on Android');
  assert.equal(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'), 'Safari on iOS');
  assert.equal(deviceLabel('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'), 'Firefox on Linux');
  assert.equal(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'), 'Edge on Windows');
  assert.equal(deviceLabel('curl/8.5'), 'A browser');
});

test('the count goes before the title, once, and away at 0', () => {
  assert.equal(titled('Tessera', 2), '(2) Tessera');
  assert.equal(titled('(2) Tessera', 3), '(3) Tessera');
  assert.equal(titled('(3) Your turn · Tessera', 0), 'Your turn · Tessera');
  assert.equal(titled('Tessera', 0), 'Tessera');
});
