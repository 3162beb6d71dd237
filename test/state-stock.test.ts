// Reused state buffers (server/games/state-stock.ts): a copy is exact whatever the reused buffer
// held, a replaced state is reused only once nothing reads it, and a room never lets a search's
// state be overwritten by a later move.
import assert from 'node:assert/strict';
import test from 'node:test';
import { pino } from 'pino';
import { legalMoves, type Move, newGame, playMove } from '../bot-engine/game.ts';
import type { GameState } from '../bot-engine/state.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { type BotMover, Room } from '../server/games/room.ts';
import { bytesForWorker, copyOfState, HeldState, keepBuffer, spareStates, stateFromWorker } from '../server/games/state-stock.ts';
import type { GameSetup } from '../server/games/store.ts';
import type { HintSearcher } from '../server/hints.ts';

const bytes = (s: GameState) => Buffer.from(s.bytes);

/** A state `moves` moves into a seeded game. */
function played(seed: number, moves: number, players = 2): GameState {
  const state = newGame({ players, seed: `stock-${seed}` });
  for (let i = 0; i < moves && !state.finished; i++) {
    const legal = legalMoves(state);
    assert.ok(!('error' in playMove(state, legal[(i * 7) % legal.length])));
  }
  return state;
}

test('a copy in a reused buffer is byte for byte the state copied, whatever the buffer held', () => {
  // A late game's buffer (many board cells set) takes an early game's state, and back.
  const late = played(1, 60, 3);
  const early = played(2, 3);
  const lateBytes = bytes(late);
  const earlyBytes = bytes(early);
  const held = new HeldState(late);
  held.replace(early.clone());
  assert.ok(spareStates().states >= 1);
  const copy = copyOfState(early);
  assert.equal(copy, late, 'the given-back state object is the one reused');
  assert.deepEqual(bytes(copy), earlyBytes);
  const again = new HeldState(copy);
  again.replace(played(3, 1));
  const back = copyOfState(played(1, 60, 3));
  assert.deepEqual(bytes(back), lateBytes);
});

test('a replaced state is given back at once unless lent; then when the last loan ends; the current one never', () => {
  const first = played(4, 2);
  const held = new HeldState(first);
  const a = held.lend();
  const b = held.lend();
  assert.equal(a.state, first);
  const spare = spareStates().states;
  held.replace(played(5, 2));
  assert.equal(spareStates().states, spare, 'lent twice: kept');
  a.release();
  a.release();
  assert.equal(spareStates().states, spare, 'one loan left (a second release of the first changes nothing)');
  b.release();
  assert.equal(spareStates().states, spare + 1, 'given back with the last loan');
  copyOfState(first);

  const current = held.lend();
  current.release();
  assert.equal(spareStates().states, spare, 'the current state stays');
  assert.equal(held.current, current.state);
});

test("a worker's round trip: the bytes go in a handed-back buffer, come back into a given-back state, and a buffer moved away is not kept", () => {
  const asked = played(6, 9, 3);
  // A given-back state to copy the answer into.
  new HeldState(played(7, 20)).replace(played(8, 1));
  const moved = bytesForWorker(asked);
  assert.deepEqual(Buffer.from(moved), bytes(asked));
  // The worker: the buffer is moved there and back (a new ArrayBuffer object on this side).
  const back = structuredClone(moved, { transfer: [moved] });
  assert.equal(moved.byteLength, 0, 'detached once moved');
  keepBuffer(moved);
  const { states, buffers } = spareStates();
  const next = stateFromWorker(back);
  assert.deepEqual(bytes(next), bytes(asked));
  assert.deepEqual(spareStates(), { states: states - 1, buffers: buffers + 1 }, 'the state reused, the buffer kept');
  assert.equal(bytesForWorker(played(9, 2)), back, 'the next copy to a worker goes in the handed-back buffer');
});

test('a room: the state a hint search reads is never overwritten by the moves played meanwhile, and is reused once the search ends', async () => {
  const setup: GameSetup = {
    id: 'stock1',
    createdAt: '2026-11-27T10:00:00.000Z',
    seed: 'seed-stock1',
    rules: { tinyCity: false, farmers: '3rd' },
    seats: [{ kind: 'person' }, { kind: 'person' }],
    clock: { turnSeconds: null, graceSeconds: 60 },
    standIn: 'heuristic',
    hints: true,
  };
  let seen: { state: GameState; before: Buffer } | null = null;
  let answer: (move: Move) => void = () => {};
  const hints: HintSearcher = {
    search: (view) => {
      seen = { state: view, before: bytes(view) };
      return new Promise<Move>((resolve) => {
        answer = resolve;
      });
    },
    shared: () => {},
  };
  const room = await Room.create(setup, { store: new MemoryStore(), bots: {} as BotMover, hints, log: pino({ level: 'silent' }) });
  try {
    assert.ok(!('error' in (await room.join('Ann'))));
    assert.ok(!('error' in (await room.join('Bob'))));
    const hint = room.hint(0, 0, () => {});
    assert.ok(seen, 'the search started');
    const lent = seen as { state: GameState; before: Buffer };
    // Six moves, each a copy that would take the lent state's buffer were it given back.
    for (let turn = 0; turn < 6; turn++) {
      const state = room.state;
      const result = await room.play(state.currentPlayer, legalMoves(state)[0], room.view(null).turn);
      assert.ok(!('error' in result), JSON.stringify(result));
    }
    assert.notEqual(room.state, lent.state);
    assert.deepEqual(bytes(lent.state), lent.before, 'the lent state is as it was given');
    const spare = spareStates().states;
    answer(legalMoves(lent.state)[0]);
    assert.equal((await hint)?.error, 'stale_turn');
    assert.equal(spareStates().states, spare + 1, 'given back once the search ended');
  } finally {
    room.close();
  }
});
