// The search task as the server runs it: compiled dist/server/pool/search.js on a piscina pool
// (npm test builds first). Same task → same move on two different workers, and the deadline and
// the shared cancellation flag stop a search without killing its worker.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { legalMoves, newGame, resolvedToMove } from '../bot-engine/game.ts';
import { discardUnplaceable, hideBag, place } from '../bot-engine/rules.ts';
import { Rng } from '../bot-engine/rng.ts';
import { randomMove } from '../bot-engine/playout.ts';
import type { GameState } from '../bot-engine/state.ts';
import type { SearchResult, SearchTask } from '../server/pool/search.ts';

const workerFile = new URL('../dist/server/pool/search.js', import.meta.url);
const built = existsSync(fileURLToPath(workerFile));
let pool: Piscina;

before(() => {
  if (built) pool = new Piscina({ filename: workerFile.href, name: 'boundedSearch', minThreads: 2, maxThreads: 2, idleTimeout: 60_000 });
});
after(async () => {
  await pool?.destroy();
});

function position(seed: string, turns: number): GameState {
  const s = newGame({ players: 2, seed });
  const rng = new Rng(seed);
  for (let t = 0; t < turns; t++) {
    const m = randomMove(s, rng);
    place(s, m.fi, m.r, m.spot);
    discardUnplaceable(s);
  }
  return s;
}

function task(s: GameState, level: SearchTask['level'], seed: number, deadline = Date.now() + 10_000, cancel?: SharedArrayBuffer): SearchTask {
  return { state: hideBag(s.clone()).buffer, level, seed, deadline, cancel };
}

test('same task on two different pool workers gives the same move as in-process', { skip: !built && 'run npm run build first' }, async () => {
  const s = position('worker-det', 14);
  for (const level of ['heuristic', 'hard'] as const) {
    const expected = resolvedToMove(s, chooseMove(hideBag(s.clone()), level, 1234));
    const threads = new Set<number>();
    // Two at a time on a pool of two: each runs on its own worker.
    for (let round = 0; round < 3 && threads.size < 2; round++) {
      const results = (await Promise.all([pool.run(task(s, level, 1234)), pool.run(task(s, level, 1234))])) as SearchResult[];
      for (const r of results) {
        threads.add(r.threadId);
        assert.deepEqual(r.move, expected, level);
        assert.equal(r.hitDeadline, false);
        assert.equal(r.cancelled, false);
      }
    }
    assert.equal(threads.size, 2, 'both workers answered');
  }
});

test('a deadline stops an expert search promptly with a legal move', { skip: !built && 'run npm run build first' }, async () => {
  const s = position('worker-deadline', 20);
  const legal = legalMoves(s).map((m) => JSON.stringify(m));
  const r = (await pool.run(task(s, 'expert', 9, Date.now() + 25))) as SearchResult;
  assert.equal(r.hitDeadline, true);
  // Thread CPU, not wall time: a busy machine may pause the worker, but not make it search on.
  assert.ok(r.cpuMs < 500, `searched ${r.cpuMs} ms of CPU`);
  assert.ok(legal.includes(JSON.stringify(r.move)));
});

test('raising the shared cancel flag stops a running search; the worker lives on', { skip: !built && 'run npm run build first' }, async () => {
  const s = position('worker-cancel', 8);
  const legal = legalMoves(s).map((m) => JSON.stringify(m));
  const flag = new SharedArrayBuffer(4);
  const submitted = Date.now();
  const running = pool.run(task(s, 'expert', 3, submitted + 30_000, flag)) as Promise<SearchResult>;
  let raisedAfter = 0;
  setTimeout(() => {
    Atomics.store(new Int32Array(flag), 0, 1);
    raisedAfter = Date.now() - submitted;
  }, 30);
  const r = await running;
  assert.equal(r.cancelled, true);
  // Counted from when the flag was raised (a busy main thread raises it late), in thread CPU.
  assert.ok(r.cpuMs < raisedAfter + 500, `searched ${r.cpuMs} ms of CPU; the flag was raised after ${raisedAfter} ms`);
  assert.ok(legal.includes(JSON.stringify(r.move)));
  // The same worker pool keeps serving.
  const next = (await pool.run(task(s, 'greedy', 4))) as SearchResult;
  assert.ok(legal.includes(JSON.stringify(next.move)));
  assert.equal(pool.threads.length, 2);
});
