// The stand-in clock on its own, on mocked timers: why a bot plays a person's seat, and when that
// person counts as having left (a rated game's end places leavers last: rated-end.ts).

import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import pino from 'pino';
import { withRatedResult } from '../server/games/rated-end.ts';
import { SeatClock } from '../server/games/seat-clock.ts';
import { twoPeopleSetup } from './server-helpers.ts';

test('a person whose turn clock ran out, then who left past the grace period, has left: placed last in a rated game', () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  try {
    const setup = { ...twoPeopleSetup('clock-then-away'), rated: true, clock: { turnSeconds: 30, graceSeconds: 60 } };
    const standIns: string[] = [];
    const clock = new SeatClock(setup, { isPerson: () => true, playing: () => true, currentSeat: () => 0, onStandIn: (seat, why) => standIns.push(`${seat}:${why}`) }, pino({ level: 'silent' }));
    clock.start(() => true);
    mock.timers.tick(30_000);
    assert.deepEqual([clock.reason(0), standIns], ['clock', ['0:clock']], 'the turn clock ran out: a bot plays the seat');
    clock.presence(0, false);
    mock.timers.tick(59_999);
    assert.equal(clock.reason(0), 'clock', 'within the grace period they may come back');
    mock.timers.tick(1);
    assert.deepEqual([clock.reason(0), clock.leftAt(0), standIns], ['away', 30_000, ['0:clock', '0:away']]);
    const end = withRatedResult(setup, { abandoned: false, scores: [50, 10] }, clock, { players: ['p_a', 'p_b'], onTurn: 1, expired: false, now: 200_000 });
    assert.deepEqual(end.rated?.ranks, [2, 1], 'the leader who left places last');
    clock.stop();
  } finally {
    mock.timers.reset();
  }
});

test('a person whose turn clock ran out but who stays connected has not left: ranked by score', () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  try {
    const setup = { ...twoPeopleSetup('clock-stays'), rated: true, clock: { turnSeconds: 30, graceSeconds: 60 } };
    const clock = new SeatClock(setup, { isPerson: () => true, playing: () => true, currentSeat: () => 0, onStandIn: () => {} }, pino({ level: 'silent' }));
    clock.start(() => true);
    mock.timers.tick(300_000);
    assert.deepEqual([clock.reason(0), clock.leftAt(0)], ['clock', null]);
    const end = withRatedResult(setup, { abandoned: false, scores: [50, 10] }, clock, { players: ['p_a', 'p_b'], onTurn: 1, expired: false, now: 300_000 });
    assert.deepEqual(end.rated?.ranks, [1, 2]);
    clock.stop();
  } finally {
    mock.timers.reset();
  }
});
