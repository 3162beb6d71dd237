// A finished game is read without a room: its summary, its seats' tokens and its rematch come
// from one store read and one replay (server/games/records.ts FinishedTable); a room is built
// only when something connects to it, and starts from what was read.

import assert from 'node:assert/strict';
import test from 'node:test';
import { pino } from 'pino';
import { legalMoves, newGame } from '../bot-engine/game.ts';
import { FinishedTable } from '../server/games/records.ts';
import { type BotMover, Room } from '../server/games/room.ts';
import { issueToken } from '../server/games/seats.ts';
import { GameService } from '../server/games/service.ts';
import { type GameSetup, type GameStore, MemoryStore } from '../server/games/store.ts';
import { applyMove } from '../server/games/table.ts';
import { Metrics } from '../server/metrics.ts';

const setup: GameSetup = {
  id: 'done',
  createdAt: '2026-01-01T00:00:00.000Z',
  seed: 'a finished game',
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'person' }],
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
};

/** A store that counts its reads of a game. */
function countingReads(store: GameStore): { store: GameStore; reads: () => number } {
  let reads = 0;
  const counted = Object.create(store) as GameStore;
  counted.get = (id) => {
    reads++;
    return store.get(id);
  };
  return { store: counted, reads: () => reads };
}

test('a finished game is read with one store read and no room; a room is built for connecting, with the rematch linked meanwhile', async () => {
  const memory = new MemoryStore();
  const ann = issueToken('Ann');
  const bea = issueToken('Bea');
  await memory.create(setup, [ann.holder, bea.holder]);
  const state = newGame({ players: 2, rules: setup.rules, seed: setup.seed });
  const applied = applyMove(setup, state, 0, 0, legalMoves(state)[0]);
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

    const rematch = await games.rematch('done', bea.token);
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
