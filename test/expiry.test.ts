// A game's expiry clock (server/games/expiry.ts) as plain data: hand-made times in, idle times,
// due writes and expiry reasons out. No room, no timers, no sleeps.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Activity, expiryReason, PERSON_SEEN_WRITE_MS } from '../server/games/expiry.ts';

const settings = { expireOpenSeatSeconds: 60, expireAwaySeconds: 120, expireIdleSeconds: 600 };
const T = 1_000_000;

test('a new game is idle from its start; a move and a seat taken restart the clock', () => {
  const a = new Activity(T);
  assert.deepEqual(a.idleFor(T + 5000, false), { activity: 5000, people: 5000 });
  assert.deepEqual(a.idleFor(T + 5000, true), { activity: 5000, people: 0 }, 'nobody is away while a person is connected');
  a.moved(T + 6000);
  assert.deepEqual(a.idleFor(T + 7000, false), { activity: 1000, people: 7000 }, 'a move is activity, not a person seen');
  a.seated(T + 8000);
  assert.deepEqual(a.idleFor(T + 9000, false), { activity: 1000, people: 1000 });
});

test('a restored game counts on from its stored times: a restart neither extends nor cuts it', () => {
  const a = new Activity(T + 50_000, { lastActivityAt: T, lastPersonAt: T + 20_000 });
  assert.deepEqual(a.idleFor(T + 50_000, false), { activity: 50_000, people: 30_000 });
  const unknown = new Activity(T + 50_000, {});
  assert.deepEqual(unknown.idleFor(T + 50_000, false), { activity: 0, people: 0 }, 'a store that kept no times: from now');
});

test('"person last seen" writes are throttled to one per PERSON_SEEN_WRITE_MS', () => {
  const a = new Activity(T);
  assert.ok(a.seen(T) <= 0, 'never stored: due at once');
  assert.equal(a.unstored, true);
  assert.equal(a.storing(T, false), T);
  assert.equal(a.unstored, false);
  assert.equal(a.seen(T + 1000), PERSON_SEEN_WRITE_MS - 1000, 'seen again soon after: due once the throttle has passed');
  assert.equal(a.unstored, true);
  assert.equal(a.seen(T + PERSON_SEEN_WRITE_MS), 0);
  // Storing while a person is connected stores now, not when they were last noticed.
  assert.equal(a.storing(T + 7000, true), T + 7000);
  assert.deepEqual(a.idleFor(T + 9000, false), { activity: 9000, people: 2000 });
  // A seat taken was stored with the seat: the next sighting waits the full throttle.
  a.seated(T + 10_000);
  assert.equal(a.unstored, false);
  assert.equal(a.seen(T + 10_000), PERSON_SEEN_WRITE_MS);
});

test('expiry: open seats, people away, nothing happening; never a finished game', () => {
  const idle = (activity: number, people: number) => ({ activity: activity * 1000, people: people * 1000 });
  assert.equal(expiryReason('waiting', idle(59, 1000), settings), null, 'waiting games expire by their open seats only');
  assert.equal(expiryReason('waiting', idle(60, 0), settings), 'open_seat');
  assert.equal(expiryReason('playing', idle(119, 119), settings), null);
  assert.equal(expiryReason('playing', idle(0, 120), settings), 'away');
  assert.equal(expiryReason('playing', idle(600, 0), settings), 'idle', 'people connected who never move');
  assert.equal(expiryReason('playing', idle(600, 120), settings), 'away', 'away is the reason when both hold');
  assert.equal(expiryReason('finished', idle(10_000, 10_000), settings), null);
});
