// The SQLite store's writer thread (server/storage/sqlite/writer.ts): moves appended on a connection
// of its own, committed together, each before its promise settles; the store's own transactions
// taking turns with it; and what happens when the thread dies.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import type { RecordMove } from '../bot-engine/record.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import { StorageError } from '../server/storage/errors.ts';
import { threadsAtNice, twoPeopleSetup } from './server-helpers.ts';

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'tessera-writer-')), 'games.db');
const move = (x: number): RecordMove => ({ tile: 'V', x, y: 1, rotation: 0, meeple: null });
const moveCount = (db: DatabaseSync, id: string) => Number(db.prepare('SELECT move_count FROM games WHERE id = ?').get(id)?.move_count);

test('moves of many games asked for at once are committed together, each before its promise settles; a refused one fails alone', async () => {
  const path = tempDb();
  const store = new SqliteStore({ path, moveWrites: 'thread' });
  const ids = Array.from({ length: 20 }, (_, i) => `g${i}`);
  for (const id of ids) await store.create(twoPeopleSetup(id), [null, null]);
  const outcomes = await Promise.allSettled([...ids.map((id, i) => store.appendMoves(id, [move(i), move(i + 1)], null)), store.appendMoves('nope', [move(0)], null)]);
  assert.deepEqual(
    outcomes.slice(0, -1).map((o) => o.status),
    ids.map(() => 'fulfilled'),
  );
  assert.equal(outcomes.at(-1)?.status, 'rejected');
  assert.match(String((outcomes.at(-1) as PromiseRejectedResult).reason), /no game nope/);
  assert.ok(store.threadCommits >= 1 && store.threadCommits < ids.length, `${store.threadCommits} commits for ${ids.length + 1} writes`);
  assert.throws(() => new SqliteStore({ path, moveWrites: 'thread', threadNice: 20 }), /threadNice must be an integer from 0 to 19, got 20/);
  // SQLite refusing a write in the thread (here a trigger, as a full disk would) reaches the
  // caller as StorageError, the store's "cannot write", and leaves the batch's others committed.
  await store.create(twoPeopleSetup('refused'), [null, null]);
  await store.write((db) => db.exec("CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.game_id = 'refused' BEGIN SELECT RAISE(ABORT, 'no room on the disk'); END"));
  const [refused, kept] = await Promise.allSettled([store.appendMoves('refused', [move(0)], null), store.appendMoves('g0', [move(9)], null)]);
  assert.ok(refused.status === 'rejected' && refused.reason instanceof StorageError, 'StorageError');
  assert.match(refused.reason.message, /the game store could not write: no room on the disk/);
  assert.equal(kept.status, 'fulfilled');
  if (process.platform === 'linux') assert.equal(threadsAtNice(10), 1, 'the writer thread (the one thread here) runs at nice 10, below the event loop');
  // Another connection (as after a crash) sees every fulfilled write, in order.
  const other = new DatabaseSync(path, { readOnly: true });
  for (const [i, id] of ids.entries()) {
    assert.equal(moveCount(other, id), id === 'g0' ? 3 : 2);
    assert.deepEqual(
      other
        .prepare('SELECT move FROM moves WHERE game_id = ? ORDER BY seq')
        .all(id)
        .map((r) => JSON.parse(r.move as string)),
      id === 'g0' ? [move(0), move(1), move(9)] : [move(i), move(i + 1)],
    );
  }
  other.close();
  await store.close();
});

test("the store's own transactions take turns with the thread: after the writes asked before them, before those asked after", async () => {
  const path = tempDb();
  const store = new SqliteStore({ path, moveWrites: 'thread' });
  await store.create(twoPeopleSetup('t'), [null, null]);
  const first = store.appendMoves('t', [move(1)], null);
  const seen = store.write((db) => moveCount(db, 't'));
  const later = store.appendMoves('t', [move(2)], null);
  assert.equal(await seen, 1, 'the write asked for before it had committed; the one asked for after had not started');
  await Promise.all([first, later]);
  assert.deepEqual((await store.get('t'))!.moves, [move(1), move(2)]);
  // A metadata change queued between moves sees the moves before it and keeps their order.
  const a = store.appendMoves('t', [move(3)], null);
  const seat = store.update('t', { name: 'take_seat', apply: () => ({ holders: [{ name: 'Ann', tokenHash: null }, null] }) });
  const b = store.appendMoves('t', [move(4)], null);
  await Promise.all([a, seat, b]);
  const stored = (await store.get('t'))!;
  assert.deepEqual(stored.moves, [move(1), move(2), move(3), move(4)]);
  assert.equal(stored.holders[0]?.name, 'Ann');
  // Closing waits for its turn too: what was asked for before is committed first.
  const last = store.appendMoves('t', [move(5)], null);
  await store.close();
  await last;
  const reopened = new SqliteStore({ path });
  assert.deepEqual((await reopened.get('t'))!.moves.at(-1), move(5));
  await reopened.close();
});

test("a writer thread that dies: the writes in flight are refused (StorageError), one warning says why, later moves are written on the store's own connection", async () => {
  const warnings: string[] = [];
  const log = pino({}, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const store = new SqliteStore({ path: tempDb(), moveWrites: 'thread', log });
  await store.create(twoPeopleSetup('d'), [null, null]);
  await store.appendMoves('d', [move(1)], null);
  const commitsBefore = store.threadCommits;
  const worker = (store as unknown as { writer: { worker: Worker } }).writer.worker;
  // Ended before it can answer: the write is lost with it, and its caller must hear so.
  const ended = worker.terminate();
  const inFlight = store.appendMoves('d', [move(2)], null);
  await ended;
  await assert.rejects(inFlight, (e: Error) => e instanceof StorageError && /writer thread exited/.test(e.message));
  assert.deepEqual(warnings, ['the SQLite writer thread stopped: moves are written on the event loop instead']);
  await store.appendMoves('d', [move(3)], null);
  assert.equal(store.threadCommits, commitsBefore, 'not through the thread');
  const moves = (await store.get('d'))!.moves;
  assert.deepEqual(moves.at(-1), move(3));
  assert.deepEqual(moves[0], move(1));
  await store.close();
});
