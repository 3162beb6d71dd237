// What a room sends its subscribers: one frame per change. A person taking their seat back from
// the stand-in bot by moving is one change (the seat is theirs again and their tile is placed),
// so each subscriber gets one frame for it, never an in-between one first.
import assert from 'node:assert/strict';
import test from 'node:test';
import { pino } from 'pino';
import { legalMoves } from '../bot-engine/game.ts';
import type { BotAnswer } from '../server/games/bot-scheduler.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { type BotMover, Room, type Subscriber } from '../server/games/room.ts';
import type { GameSetup } from '../server/games/store.ts';
import type { ViewFrames } from '../server/games/view.ts';

const setup: GameSetup = {
  id: 'reclaim',
  createdAt: '2026-11-28T10:00:00.000Z',
  seed: 'seed-reclaim',
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'person' }],
  // A 50 ms turn clock: Ann's runs out at once and the stand-in takes her turn.
  clock: { turnSeconds: 0.05, graceSeconds: 60 },
  standIn: 'random',
};

/** A stand-in that is still thinking: its search starts, and answers only when the test ends. */
function thinkingBot(): { bots: BotMover; asked: Promise<void>; stop: () => void } {
  let asked!: () => void;
  let stop!: (e: Error) => void;
  const started = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const search = new Promise<BotAnswer>((_, reject) => {
    stop = reject;
  });
  const move = () => {
    asked();
    return search;
  };
  return { bots: { move }, asked: started, stop: () => stop(new Error('test over')) };
}

/** A subscriber that keeps each view it is sent (the version 1 frame, parsed). */
function recorder(seat: number | null): Subscriber & { frames: any[] } {
  const frames: any[] = [];
  return { seat, frames, update: (built: ViewFrames) => frames.push(JSON.parse(built.state(false))), chat: () => {} };
}

test('a move that takes the seat back from the stand-in is one frame for each subscriber, with the seat and the move in it', async () => {
  const bot = thinkingBot();
  const room = await Room.create(setup, { store: new MemoryStore(), bots: bot.bots, log: pino({ level: 'silent' }) });
  try {
    assert.ok(!('error' in (await room.join('Ann'))));
    assert.ok(!('error' in (await room.join('Ben'))));
    const subscribers = [recorder(0), recorder(1), recorder(null)];
    for (const s of subscribers) room.subscribe(s);
    // Ann stays connected and lets her clock run out: the stand-in starts its search for her.
    await bot.asked;
    assert.equal(room.view(null).seats[0].standIn, 'clock');
    for (const s of subscribers) s.frames.length = 0;

    // Ann moves herself before the bot answers: she takes her seat back by moving.
    const turn = room.turn;
    const played = await room.play(0, legalMoves(room.state)[0], turn);
    assert.ok(!('error' in played), JSON.stringify(played));
    const counts = subscribers.map((s) => s.frames.length);
    assert.deepEqual(counts, [1, 1, 1], `one frame each for the reclaiming move (${counts.reduce((a, b) => a + b)} updates for ${subscribers.length} subscribers)`);
    for (const { frames } of subscribers) {
      const [frame] = frames;
      assert.equal(frame.view.seats[0].standIn, null, 'the seat is hers again');
      assert.equal(frame.view.turn, room.turn, 'and her move is in the same frame');
      assert.equal(frame.last.seat, 0);
      assert.equal(frame.last.bot, undefined, 'placed by Ann, not the bot');
    }
  } finally {
    bot.stop();
    room.close();
  }
});

test('a reclaiming move the rules refuse still takes the seat back, in one frame', async () => {
  const bot = thinkingBot();
  const room = await Room.create({ ...setup, id: 'reclaim-refused' }, { store: new MemoryStore(), bots: bot.bots, log: pino({ level: 'silent' }) });
  try {
    assert.ok(!('error' in (await room.join('Ann'))));
    assert.ok(!('error' in (await room.join('Ben'))));
    const subscribers = [recorder(0), recorder(1), recorder(null)];
    for (const s of subscribers) room.subscribe(s);
    await bot.asked;
    for (const s of subscribers) s.frames.length = 0;

    const refused = await room.play(0, { x: 40, y: 40, rotation: 0, meeple: null }, room.turn);
    assert.equal('error' in refused && refused.error, 'illegal_move');
    assert.deepEqual(
      subscribers.map((s) => s.frames.length),
      [1, 1, 1],
    );
    for (const { frames } of subscribers) {
      assert.equal(frames[0].view.seats[0].standIn, null, 'the seat is hers again');
      assert.equal(frames[0].view.turn, 0, 'nothing was placed');
    }
  } finally {
    bot.stop();
    room.close();
  }
});
