// The pool under trouble: readiness only after warm-up, a worker crashing mid-search, a search
// that ignores its deadline, a worker module that throws at load, and the queue at its bound.
// Needs the compiled worker (`npm test` builds first).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { pino } from 'pino';
import { newGame, playMove, resolveMove } from '../bot-engine/game.ts';
import { hideBag } from '../bot-engine/rules.ts';
import { BotScheduler } from '../server/games/bot-scheduler.ts';
import { bytesForWorker, spareStates } from '../server/games/state-stock.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import type { Metrics } from '../server/metrics.ts';
import { type BotPool, PoolStartError } from '../server/pool/pool.ts';
import { fixture, get, injectServer, makePool, post, startServer, threadNices, threadsAtNice, WAIT } from './server-helpers.ts';

const silent = pino({ level: 'silent' });

const view = () => hideBag(newGame({ players: 2, seed: 'pool-test' }));
const total = async (c: { get(): Promise<{ values: { value: number }[] }> }) => (await c.get()).values.reduce((n, v) => n + v.value, 0);

/** Resolves once a worker has been replaced: at once if it already was, else on the pool's event. */
async function workerReplaced(pool: BotPool, metrics: Metrics): Promise<void> {
  if ((await total(metrics.respawns)) === 0) await once(pool, 'respawn', { signal: AbortSignal.timeout(10_000) });
}

test('ready only after every worker is warm; games are refused with 503 before', async () => {
  const server = await injectServer({ workerFile: fixture('pool-slow-warmup-worker.mjs'), botWorkers: 2 }, false);
  try {
    const early = await get(server.base, '/readyz');
    assert.equal(early.status, 503);
    assert.match(early.body.reason, /warming up/);
    const refused = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal((await get(server.base, '/healthz')).status, 200, 'alive while warming');
    await server.app.poolStarted;
    assert.equal((await get(server.base, '/readyz')).status, 200);
    const pool = (await get(server.base, '/api/pool')).body;
    assert.equal(pool.workers.length, 2, 'one warm-up per worker');
    assert.notEqual(pool.workers[0].threadId, pool.workers[1].threadId);
    for (const w of pool.workers) assert.ok(w.warmMs >= 2000, `warm-up time measured (${w.warmMs} ms)`);
    assert.equal(pool.counters.shed, 1);
  } finally {
    await server.app.close();
  }
});

test('a worker that crashes mid-search: retried cheaply, respawned, counted', async () => {
  // Two workers: the retry goes to the warm survivor, so its short budget does not have to
  // cover the replacement's spawn (which a loaded machine can stretch past it).
  const { pool, metrics, close } = makePool(fixture('pool-crash-worker.mjs'), { workers: 2 });
  try {
    await pool.start();
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 500, logger: silent });
    const v = view();
    const answer = await scheduler.move(v, 'hard', 7);
    assert.equal(answer.source, 'retry');
    assert.equal(answer.level, 'random');
    assert.ok(!('error' in resolveMove(v, answer.move)), 'the move is legal');
    assert.equal((await metrics.searchFailures.get()).values.find((x) => x.labels.reason === 'crash')?.value, 1);
    // The pool answers again, and the replacement thread comes up.
    const again = await scheduler.move(v, 'random', 8);
    assert.equal(again.source, 'search');
    // A replacement is listed once it answers a search: keep both threads busy until it has.
    await workerReplaced(pool, metrics);
    const replacementAnswered = () => pool.summary().workers.some((w) => w.respawn);
    for (let i = 0; i < 200 && !replacementAnswered(); i++) await Promise.all([scheduler.move(v, 'random', 9), scheduler.move(v, 'random', 10)]);
    assert.equal(await total(metrics.respawns), 1);
    const summary = pool.summary();
    assert.ok(summary.workers.some((w) => !w.alive));
    const respawned = summary.workers.find((w) => w.respawn)!;
    assert.ok(respawned, 'the replacement is listed');
    // Its spawn cost is its own: creation → module loaded, a fraction of a second, not process uptime.
    assert.ok(respawned.onlineMs > 0 && respawned.onlineMs < 5000, `respawn online in ${respawned.onlineMs} ms`);
    assert.ok(respawned.spawnCpuMs > 0);
    // It warmed itself before its first task, and that warm-up is part of its spawn cost.
    assert.ok(respawned.warmMs !== null && respawned.warmMs >= respawned.onlineMs, `respawn warm at ${respawned.warmMs} ms`);
  } finally {
    await close();
  }
});

test('a search that ignores its deadline is given up on in bounded time', async () => {
  // Two workers, so the retry lands on a warm one while the hung one is replaced: with one, the
  // retry would race the replacement's spawn and warm-up, and a busy machine loses that race.
  const { pool, metrics, close } = makePool(fixture('pool-hang-worker.mjs'), { workers: 2 });
  try {
    await pool.start();
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 200, logger: silent });
    const started = performance.now();
    const answer = await scheduler.move(view(), 'expert', 3);
    const took = performance.now() - started;
    // Deadline 200 ms + grace, then 1 s for a running search to stop on its own, then the retry.
    assert.ok(took < 2500, `answered in ${took} ms, not after the 5 s hang`);
    assert.equal(answer.source, 'retry');
    // piscina creates the replacement once the ended thread has exited.
    await workerReplaced(pool, metrics);
    assert.equal(await total(metrics.respawns), 1, 'the hung worker was ended and replaced');
    assert.equal(await total(metrics.deadlineHits), 1);
    assert.equal((await metrics.searchFailures.get()).values.find((x) => x.labels.reason === 'deadline')?.value, 1);
  } finally {
    await close();
  }
});

test('a cooperative search past its deadline answers and is counted', async () => {
  // The real search, reached past its deadline (the fixture holds it until then): it stops at its
  // first check with its best move so far. A deadline a loaded machine's worker is sure to pick the
  // task up within (a few ms of budget was not: the task was dropped unstarted, and the move fell
  // back to the main thread).
  const { pool, metrics, close } = makePool(fixture('pool-late-search-worker.mjs'));
  try {
    await pool.start();
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 300, logger: silent });
    const v = view();
    const answer = await scheduler.move(v, 'expert', 1);
    assert.equal(answer.source, 'search');
    assert.equal(answer.hitDeadline, true);
    assert.ok(!('error' in resolveMove(v, answer.move)));
    assert.equal(await total(metrics.deadlineHits), 1);
  } finally {
    await close();
  }
});
test("a bot move costs the main thread one copy of the state: the worker hands it back, the move is played on it, the caller's state is untouched", async () => {
  const { pool, metrics, close } = makePool(null);
  const slice = ArrayBuffer.prototype.slice;
  try {
    await pool.start();
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 2000, logger: silent });
    // The room's own state, bag order and all: the search hides the order on its own copy.
    const state = newGame({ players: 2, seed: 'one-copy' });
    // From an empty stock: a buffer an earlier search kept (one dropped unstarted) would take the
    // copy by `set`, not `slice`, and hide it from the count.
    while (spareStates().buffers > 0) bytesForWorker(state);
    const before = Buffer.from(state.buffer);
    let copies = 0;
    ArrayBuffer.prototype.slice = function (this: ArrayBuffer, ...range: [number?, number?]) {
      if (this.byteLength === state.buffer.byteLength) copies++;
      return slice.apply(this, range);
    };
    const answer = await scheduler.move(state, 'heuristic', 4);
    ArrayBuffer.prototype.slice = slice;
    assert.equal(copies, 1);
    assert.deepEqual(Buffer.from(state.buffer), before, 'the state asked about never changes');
    // The same move the hidden-bag view gets, played on the real state.
    const hidden = await scheduler.move(hideBag(state.clone()), 'heuristic', 4);
    assert.deepEqual(answer.move, hidden.move);
    const expected = state.clone();
    assert.ok(!('error' in playMove(expected, answer.move)));
    assert.deepEqual(Buffer.from(answer.played.next.buffer), Buffer.from(expected.buffer));
    assert.equal(answer.played.outcome.finished, false);
  } finally {
    ArrayBuffer.prototype.slice = slice;
    await close();
  }
});

test('the worker threads run below the event loop, at the nice value asked for; the loop keeps its own', { skip: process.platform !== 'linux' && 'thread priorities are Linux only' }, async () => {
  const before = threadsAtNice(10);
  const { pool, close } = makePool(null, { workers: 2 });
  try {
    await pool.start();
    assert.deepEqual(
      pool.summary().workers.map((w) => w.nice),
      [10, 10],
      'each worker reports the value it runs at',
    );
    assert.equal(threadsAtNice(10), before + 2, 'two more threads at nice 10: the two workers');
    assert.equal(threadNices().get(process.pid), 0, 'the main thread (its id is the process id) is untouched');
  } finally {
    await close();
  }
  const level = makePool(null, { workerNice: 0 });
  try {
    await level.pool.start();
    assert.deepEqual(
      level.pool.summary().workers.map((w) => w.nice),
      [0],
    );
  } finally {
    await level.close();
  }
  assert.throws(() => makePool(null, { workerNice: 20 }), /workerNice must be an integer from 0 to 19/);
  assert.throws(() => loadConfig({ TESSERA_WORKER_NICE: '-1' }), ConfigError);
  assert.equal(loadConfig({}).workerNice, 10);
});

test('a worker module that throws at load fails the start with a clear error', async () => {
  const { pool, close } = makePool(fixture('pool-throw-worker.mjs'), { workers: 2, warmupTimeoutMs: 5000 });
  const started = performance.now();
  await assert.rejects(pool.start(), (e: Error) => {
    assert.ok(e instanceof PoolStartError);
    assert.match(e.message, /failed to load/);
    assert.match(e.message, /bot tables missing \(fixture\)/);
    return true;
  });
  assert.ok(performance.now() - started < 4000, 'fails fast, not at the warm-up timeout');
  await close();
  const missing = makePool('/nonexistent/worker.js');
  await assert.rejects(missing.pool.start(), /npm run build/);
  await missing.close();
});

test('a full queue: searches are refused at once and the bot still moves (main-thread fallback), one log line per cause', async (t) => {
  const { pool, metrics, close } = makePool(fixture('pool-hang-worker.mjs'), { maxQueue: 1 });
  const lines: { msg: string; reason?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  try {
    await pool.start();
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 300, logger });
    // One search blocks the worker, one fills the queue; the third bot move cannot queue.
    const busy = [scheduler.move(view(), 'hard', 1), scheduler.move(view(), 'hard', 2)];
    await t.waitFor(() => assert.equal(pool.load, 1), WAIT);
    const v = view();
    const answer = await scheduler.move(v, 'hard', 3);
    // Refused by the full queue, not timed out after waiting in it (a wait ends at the deadline,
    // with another reason): the reason says which, whatever the machine's load.
    assert.ok(
      lines.some((l) => l.msg === 'bot search failed' && l.reason === 'busy'),
      'no waiting on a full queue',
    );
    assert.equal(answer.source, 'fallback');
    assert.ok(!('error' in resolveMove(v, answer.move)));
    assert.ok((await metrics.degraded.get()).values.length > 0, 'counted as degraded');
    // Three more: each is counted, none logs again (an overloaded loop is not given log writes).
    for (const seed of [4, 5, 6]) assert.equal((await scheduler.move(view(), 'hard', seed)).source, 'fallback');
    assert.equal(await total(metrics.botMoves), 4);
    const said = (msg: string) => lines.filter((l) => l.msg === msg).length;
    assert.equal(said('bot move chosen on the main thread: the pool could not answer in time'), 1);
    assert.equal(lines.filter((l) => l.msg === 'bot search failed' && l.reason === 'busy').length, 1);
    // One line per cause: the plan may give either cause (a crowded queue, or a predicted wait
    // longer than the deadline, which rests on run times measured on this machine).
    const degraded = lines.filter((l) => l.msg.startsWith('bot move degraded')).map((l) => l.msg);
    assert.ok(degraded.length >= 1 && new Set(degraded).size === degraded.length, JSON.stringify(degraded));
    // Three refused at once: each main-thread move in a turn of the event loop of its own.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const moved = async (seed: number) => {
      assert.equal((await scheduler.move(view(), 'hard', seed)).source, 'fallback');
      return turns;
    };
    const at = await Promise.all([7, 8, 9].map(moved));
    counting = false;
    assert.ok(at[0] < at[1] && at[1] < at[2], `loop turns at each move: ${at}`);
    const causes = lines.map((l) => `${l.msg} ${l.reason ?? ''}`);
    assert.equal(new Set(causes).size, causes.length, `one line per cause: ${JSON.stringify(causes)}`);
    await Promise.all(busy);
  } finally {
    await close();
  }
});

test('queue wait and run time are measured apart: searches behind a busy worker wait, they do not run longer', async () => {
  const { pool, close } = makePool(null, { workers: 1 });
  try {
    await pool.start();
    const task = () => ({ state: view().buffer, level: 'hard' as const, seed: 3, deadline: Date.now() + 5000 });
    const results = await Promise.all([pool.search(task()), pool.search(task()), pool.search(task())]);
    const runs = results.map((r) => r.runMs);
    const tasks = pool.summary().tasks;
    assert.ok(tasks);
    assert.equal(tasks.queueWaitMs.count, 3);
    // The third search waited for the first two to run on the single worker.
    assert.ok(tasks.queueWaitMs.max >= 0.9 * (runs[0] + runs[1]), `max wait ${tasks.queueWaitMs.max} ms for runs ${runs.join(', ')} ms`);
    assert.ok(tasks.runMs.max <= Math.max(...runs) + 1);
  } finally {
    await close();
  }
});

test("a cheap bot's move is not kept behind other games' deep searches; the wait it is told counts the quick ones only", async () => {
  const { pool, close } = makePool(null, { workers: 1 });
  try {
    await pool.start();
    const task = (level: 'hard' | 'random', seed: number) => ({ state: view().buffer, level, seed, deadline: Date.now() + 5000 });
    const finished: string[] = [];
    const search = (name: string, level: 'hard' | 'random', seed: number) => pool.search(task(level, seed)).then(() => finished.push(name));
    // One worker: the first deep search runs, a second waits; then a random bot's move comes.
    const running = [search('hard 1', 'hard', 1), search('hard 2', 'hard', 2)];
    assert.ok(pool.predictWaitMs(1) < pool.predictWaitMs(), 'a quick search is not told to wait for the deep one queued');
    await Promise.all([...running, search('random', 'random', 3)]);
    assert.deepEqual(finished, ['hard 1', 'random', 'hard 2']);
  } finally {
    await close();
  }
});

test('a running search slow to stop is let finish: no worker is ended for it', async () => {
  const { pool, metrics, close } = makePool(fixture('pool-slow-stop-worker.mjs'));
  try {
    await pool.start();
    // Deadline 300 ms: the hard timer fires at ~450 ms while the search still runs (to ~600 ms). A
    // shorter one (50 ms: the hard timer at ~90 ms) could fire before a loaded machine's worker had
    // even picked the task up, and the task was then dropped as unstarted, not let finish.
    const scheduler = new BotScheduler({ pool, metrics, deadlineMs: 300, logger: silent });
    const v = view();
    const answer = await scheduler.move(v, 'hard', 5);
    assert.equal(answer.source, 'search');
    assert.ok(!('error' in resolveMove(v, answer.move)));
    assert.equal(await total(metrics.respawns), 0, 'its worker was not ended');
  } finally {
    await close();
  }
});

test('a nearly full queue: /readyz says 503 and new games are shed with Retry-After', async (t) => {
  const server = await injectServer({ workerFile: fixture('pool-hang-worker.mjs'), botWorkers: 1, maxQueue: 2, botDeadlineMs: 3000 });
  try {
    // Three games whose bots move first: one search runs (and hangs), two wait: the queue is full.
    for (let i = 0; i < 3; i++) {
      const created = await post(server.base, '/api/games', { seats: [{ kind: 'bot', level: 'hard' }, { kind: 'person' }] });
      assert.equal(created.status, 201);
      assert.equal((await post(server.base, `/api/games/${created.body.id}/seats`, { name: 'Ann' })).status, 201);
    }
    await t.waitFor(async () => {
      const ready = await get(server.base, '/readyz');
      assert.equal(ready.status, 503);
      assert.match(ready.body.reason, /queue/);
    }, WAIT);
    const shed = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
    assert.equal(shed.status, 503);
    assert.ok(Number(shed.headers.get('retry-after')) > 0);
    assert.equal((await get(server.base, '/healthz')).status, 200, 'still alive');
  } finally {
    await server.app.close();
  }
});

test('while shutting down, every request gets 503 shutting_down with Retry-After', async () => {
  const server = await startServer({ workerFile: fixture('pool-hang-worker.mjs'), botWorkers: 1, botDeadlineMs: 3000, shutdownGraceMs: 3000 });
  // A bot search in flight holds the shutdown open while it drains.
  const created = await post(server.base, '/api/games', { seats: [{ kind: 'bot', level: 'hard' }, { kind: 'person' }] });
  assert.equal((await post(server.base, `/api/games/${created.body.id}/seats`, { name: 'Ann' })).status, 201);
  const closed = server.app.close();
  for (const path of ['/api/games', '/metrics', `/api/games/${created.body.id}`]) {
    const r = await fetch(server.base + path);
    assert.equal(r.status, 503, path);
    assert.ok(Number(r.headers.get('retry-after')) > 0, path);
    assert.deepEqual(await r.json(), { statusCode: 503, code: 'shutting_down', message: 'the server is shutting down; retry in a few seconds' });
  }
  const ready = await fetch(`${server.base}/readyz`);
  assert.equal(ready.status, 503);
  assert.equal(((await ready.json()) as { reason: string }).reason, 'shutting down');
  await closed;
});

test("a bot search's state bytes go to the worker and come back moved; a queued search aborted rejects with an AbortError", async () => {
  const { pool, close } = makePool(null, { workers: 1 });
  try {
    await pool.start();
    const s = newGame({ players: 2, seed: 'moved-back' });
    const bytes = hideBag(s.clone()).buffer;
    const size = bytes.byteLength;
    const running = pool.search({ state: bytes, level: 'expert', seed: 1, deadline: Date.now() + 300 });
    assert.equal(bytes.byteLength, 0, 'moved to the worker, not copied');
    const abort = new AbortController();
    const queued = pool.search({ state: hideBag(s.clone()).buffer, level: 'random', seed: 2, deadline: Date.now() + 5000 }, abort.signal);
    abort.abort();
    await assert.rejects(queued, (e: Error) => e instanceof Error && e.name === 'AbortError');
    const result = await running;
    assert.ok(result.move);
    assert.equal(result.state?.byteLength, size, 'the same bytes, moved back with the answer');
    await assert.rejects(pool.search({ state: hideBag(s.clone()).buffer, level: 'random', seed: 3, deadline: Date.now() + 5000 }, abort.signal), { name: 'AbortError' });
  } finally {
    await close();
  }
});
