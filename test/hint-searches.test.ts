// One hint search per seat and turn (server/games/hint-searches.ts), with hand-made searches
// that the test settles itself: who starts a search, who joins it, who is answered from it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { pino } from 'pino';
import type { Move } from '../bot-engine/game.ts';
import { type HintAnswer, HintSearches } from '../server/games/hint-searches.ts';
import type { MoveError } from '../server/games/table.ts';

const log = pino({ level: 'silent' });
const move = (x: number): Move => ({ x, y: 0, rotation: 0, meeple: null });

/** A search the test settles, and how often one was started. */
function searches() {
  const started: { seat: number; turn: number; settle: (found: Move | MoveError) => void; fail: (e: unknown) => void }[] = [];
  return {
    started,
    find: (seat: number, turn: number) => () =>
      new Promise<Move | MoveError>((settle, fail) => {
        started.push({ seat, turn, settle, fail });
      }),
  };
}

test('asks for one seat and turn share one search; each asker gets the hint, then the frame that counts it, once', async () => {
  const order: string[] = [];
  const hints = new HintSearches(() => order.push('counted'), log);
  const { started, find } = searches();
  const got: HintAnswer[] = [];
  assert.equal(hints.has(0, 3), false);
  const first = hints.ask(0, 3, (h) => got.push(h), find(0, 3));
  assert.equal(hints.has(0, 3), true);
  const second = hints.ask(0, 3, (h) => got.push(h), find(0, 3));
  const otherSeat = hints.ask(1, 3, () => {}, find(1, 3));
  assert.deepEqual(
    started.map((s) => [s.seat, s.turn]),
    [
      [0, 3],
      [1, 3],
    ],
  );
  started[0].settle(move(7));
  assert.deepEqual(await Promise.all([first, second]), [null, null]);
  assert.deepEqual(got, [
    { turn: 3, move: move(7) },
    { turn: 3, move: move(7) },
  ]);
  assert.deepEqual(order, ['counted'], 'one count for both asks');
  // A repeat after the count is answered from it at once: no search, no second count.
  const repeat: HintAnswer[] = [];
  assert.equal(await hints.ask(0, 3, (h) => repeat.push(h), find(0, 3)), null);
  assert.deepEqual(repeat, [{ turn: 3, move: move(7) }]);
  assert.equal(started.length, 2);
  assert.deepEqual(order, ['counted']);
  // The next turn is a new search.
  void hints.ask(0, 4, () => {}, find(0, 4));
  assert.equal(started.length, 3);
  started[1].settle(move(1));
  await otherSeat;
});

test('a refused search (busy, stale, unstored) answers every asker and is forgotten: the next ask searches again', async () => {
  const hints = new HintSearches(() => assert.fail('nothing is counted'), log);
  const { started, find } = searches();
  const delivered: HintAnswer[] = [];
  const asks = [hints.ask(2, 0, (h) => delivered.push(h), find(2, 0)), hints.ask(2, 0, (h) => delivered.push(h), find(2, 0))];
  const busy: MoveError = { error: 'hint_busy', message: 'busy' };
  started[0].settle(busy);
  assert.deepEqual(await Promise.all(asks), [busy, busy]);
  assert.deepEqual(delivered, []);
  assert.equal(hints.has(2, 0), false);
  void hints.ask(2, 0, () => {}, find(2, 0));
  assert.equal(started.length, 2);
});

test('a search that throws rejects every asker and is forgotten', async () => {
  const hints = new HintSearches(() => assert.fail('nothing is counted'), log);
  const { started, find } = searches();
  const asks = [hints.ask(0, 1, () => {}, find(0, 1)), hints.ask(0, 1, () => {}, find(0, 1))];
  started[0].fail(new Error('worker crashed'));
  for (const ask of asks) await assert.rejects(ask, /worker crashed/);
  assert.equal(hints.has(0, 1), false);
});

test("an old turn's search settling late does not forget the newer one", async () => {
  const hints = new HintSearches(() => {}, log);
  const { started, find } = searches();
  const old = hints.ask(0, 1, () => {}, find(0, 1));
  void hints.ask(0, 2, () => {}, find(0, 2));
  started[0].settle({ error: 'stale_turn', message: 'turn is 2, the frame quoted 1' });
  assert.equal((await old)?.error, 'stale_turn');
  assert.equal(hints.has(0, 2), true);
});
