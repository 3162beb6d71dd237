// Game analysis end to end below the browser: the engine's verdict (deterministic, from the
// mover's view only), the two-class pool (analysis on idle workers, yielding to bot moves on real
// workers), and the HTTP routes with progress as server-sent events and the result stored.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import pino from 'pino';
import { analysePosition, analysisPositions } from '../bot-engine/analysis.ts';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { legalMoves, newGame, playMove, resolvedToMove } from '../bot-engine/game.ts';
import { fnv1a, mixSeed } from '../bot-engine/rng.ts';
import { toRecord } from '../bot-engine/record.ts';
import { BAG_SIZE, H_BAGPOS } from '../bot-engine/state.ts';
import { AnalysisQueueFullError, AnalysisService } from '../server/analysis/service.ts';
import { MemoryStore } from '../server/storage/memory/games.ts';
import { Client, createGame, type Endpoint, request, fixture, get, makePool, post, injectServer, WAIT } from './server-helpers.ts';

const silent = pino({ level: 'silent' });

function midGame(seed: string, moves: number) {
  const s = newGame({ players: 2, seed });
  for (let i = 0; i < moves; i++) playMove(s, legalMoves(s)[(i * 7) % legalMoves(s).length]);
  return s;
}

test('a verdict depends on the mover’s view only, is the same every time, and the expert’s own move loses nothing', () => {
  const s = midGame('analysis-a', 12);
  const played = legalMoves(s).at(-1)!;
  const first = analysePosition(s, played, 42);
  assert.ok(first);
  assert.ok(first.loss >= 0);
  assert.deepEqual(analysePosition(s, played, 42), first, 'same position, same seed: same verdict');
  // Reorder the undrawn tiles: the bag's order is not part of what the mover knew.
  const shuffled = s.clone();
  const from = shuffled.h[H_BAGPOS] + 1;
  shuffled.bag.subarray(from, BAG_SIZE).reverse();
  assert.deepEqual(analysePosition(shuffled, played, 42), first);
  const best = analysePosition(s, first.best, 42);
  assert.equal(best?.loss, 0);
  assert.equal(analysePosition(s, { x: 99, y: 99, rotation: 0, meeple: null }, 42), null, 'an illegal move has no verdict');
});

test('a real game’s analysis: one move, one value; a move other than the played one always loses points', () => {
  // A whole game between a random and a greedy bot, judged as the service seeds it.
  const s = newGame({ players: 2, seed: 'analysis-real' });
  for (let i = 0; !s.finished; i++) {
    const outcome = playMove(s, resolvedToMove(s, chooseMove(s, i % 2 ? 'greedy' : 'random', i)));
    assert.ok(!('error' in outcome));
  }
  const record = toRecord(s, ['Ann', 'Bob'], 'analysis-real');
  const seed = fnv1a('analysis-real');
  let compared = 0;
  // The first 30 placements (~150 ms each): enough to meet moves the rollouts rate above the expert's.
  for (const p of [...analysisPositions(record)].slice(0, 30)) {
    const v = analysePosition(p.view, p.played, mixSeed(seed, p.moveIndex));
    assert.ok(v);
    const what = `move ${p.moveIndex}: ${JSON.stringify(v)}`;
    if (JSON.stringify(v.best) === JSON.stringify(v.played)) {
      assert.equal(v.loss, 0, what);
      assert.equal(v.bestValue, v.playedValue, what);
      if (v.playedValue !== null) compared++;
    } else {
      assert.ok(v.loss > 0, what);
      assert.ok(v.playedValue !== null && v.bestValue !== null, what);
      assert.ok(Math.abs(v.loss - (v.bestValue - v.playedValue)) <= 0.011, `${what}: the loss is the difference (of unrounded values)`);
    }
  }
  assert.ok(compared > 0, 'some played moves were rated at least as high as the expert’s choice');
});

test('analysis and hints under the expansions: every figure and taking the abbot back are judged, and the expert answers legally', () => {
  const rules = { innsCathedrals: true, river: true, abbot: true };
  const s = newGame({ players: 3, seed: 'analysis-expansions', rules });
  const judged = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const moves = legalMoves(s);
    // The last legal moves are the expansions' own (the abbot, the large follower) when offered.
    const played = moves.find((m) => m.returnAbbot) ?? moves.find((m) => m.figure === 'abbot') ?? moves.find((m) => m.figure === 'large') ?? moves[(i * 7) % moves.length];
    if (i % 5 === 4 || played.returnAbbot || played.figure) {
      const kind = played.returnAbbot ? 'returnAbbot' : (played.figure ?? 'follower');
      if (!judged.has(kind)) {
        const verdict = analysePosition(s, played, i);
        assert.ok(verdict, `a verdict on ${JSON.stringify(played)}`);
        assert.ok(verdict.loss >= 0);
        assert.ok(
          legalMoves(s).some((m) => JSON.stringify(m) === JSON.stringify(verdict.best)),
          `the expert's move is legal: ${JSON.stringify(verdict.best)}`,
        );
        judged.add(kind);
      }
    }
    playMove(s, played);
  }
  assert.ok(judged.has('abbot') && judged.has('large') && judged.has('returnAbbot'), `judged: ${[...judged]}`);
  // The record of such a game yields its positions with the rules it was played under.
  const record = toRecord(s, ['a', 'b', 'c'], 'analysis-expansions');
  assert.equal([...analysisPositions(record)].length, 40);
});

test('positions: every placement of a record with the view its mover had', () => {
  const s = midGame('analysis-b', 9);
  const record = toRecord(s, ['Ann', 'Bob'], 'analysis-b');
  const positions = [...analysisPositions(record)];
  assert.equal(positions.length, record.moves.filter((m) => !('discard' in m)).length);
  assert.deepEqual(
    positions.map((p) => p.seat),
    positions.map((_, i) => i % 2),
  );
  assert.throws(() => [...analysisPositions({ ...record, seed: undefined })], /seed/);
});

test('on one worker, analysis yields to bot searches: they barely wait, the analysis is unchanged', async (t) => {
  const { pool, close } = makePool(null);
  try {
    await pool.start();
    const s = midGame('analysis-c', 20);
    const played = legalMoves(s)[0];
    const expected = analysePosition(s, played, 7);
    // Three positions keep the only worker busy; bot searches arrive while they run.
    const analyses = [0, 1, 2].map(() => pool.analyse({ state: s.buffer.slice(0), played, seed: 7 }));
    const searches = [];
    for (let i = 0; i < 3; i++) {
      // Each search arrives while an analysis holds the only worker (none waits before it).
      await t.waitFor(() => {
        const { queue, classes } = pool.summary();
        assert.deepEqual([queue.inFlight, classes?.interactive.queued], [1, 0]);
      }, WAIT);
      searches.push(await pool.search({ state: s.buffer.slice(0), level: 'heuristic', seed: i, deadline: Date.now() + 2000 }));
    }
    for (const verdict of await Promise.all(analyses)) assert.deepEqual(verdict, expected, 'a preempted position is run again to the same verdict');
    const classes = pool.summary().classes!;
    assert.equal(classes.interactive.queueWaitMs.count, 3);
    assert.ok(classes.preemption.count >= 1, 'a running analysis gave its worker up');
    // A bot search waits for a yield (a few ms), not for a whole analysis position (~100+ ms).
    assert.ok(classes.interactive.queueWaitMs.max < classes.analysis.runMs.max, `bot wait ${classes.interactive.queueWaitMs.max} ms, analysis run ${classes.analysis.runMs.max} ms`);
    assert.equal(classes.analysis.runMs.count, 3, 'each position counted once, however often it yielded');
    assert.ok(pool.summary().utilization > 0, 'utilisation counts the busy worker');
    assert.equal(pool.summary().respawns, 0);
  } finally {
    await close();
  }
});

test('HTTP: analyse a finished game, follow it as server-sent events, read it back after a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-analysis-'));
  let server = await injectServer({ dataDir, expireAwaySeconds: 1 });
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const ann = await Client.join(server.ws, id, tokens.get(0));
    for (let turn = 0; turn < 6; ) {
      const view = (await ann.latestState((f) => f.view.currentSeat === 0 && f.view.legal && f.view.turn >= turn, 60_000)).view;
      const p = view.legal[0];
      ann.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
      // Peeked, not taken: the bot's answer, Ann's next turn, may be queued already.
      turn = (await ann.peekState((f) => f.view.turn > view.turn, 60_000)).view.turn;
    }
    assert.equal((await post(server.base, `/api/games/${id}/analysis`, {})).status, 409, 'not before the game is over');
    assert.equal((await get(server.base, `/api/games/${id}/analysis`)).body.code, 'no_analysis');
    // `orNone` turns only "nobody asked" into a 200: unfinished and unknown games answer as ever.
    assert.equal((await get(server.base, `/api/games/${id}/analysis?orNone=true`)).body.code, 'not_finished');
    assert.equal((await get(server.base, '/api/games/nope/analysis?orNone=true')).body.code, 'unknown_game');
    const watcher = await Client.join(server.ws, id);
    ann.close();
    await watcher.latestState((f) => f.view.status === 'finished', 60_000);
    watcher.close();
    const notAsked = await get(server.base, `/api/games/${id}/analysis?orNone=true`);
    assert.deepEqual([notAsked.status, notAsked.body], [200, { gameId: id, status: 'none' }], 'a page can look without a 404');
    assert.equal((await get(server.base, `/api/games/${id}/analysis`)).body.code, 'no_analysis', 'without orNone: 404 as before');
    const record = (await get(server.base, `/api/games/${id}/record`)).body;
    const placements = record.moves.filter((m: object) => !('discard' in m)).length;

    const asked = await post(server.base, `/api/games/${id}/analysis`, {});
    assert.equal(asked.status, 202);
    assert.deepEqual([asked.body.status, asked.body.total], ['running', placements]);
    const events = await readEvents(server.base, `/api/games/${id}/analysis/events`);
    assert.equal(events.at(-1)?.event, 'done');
    const analysis = events.at(-1)!.data;
    assert.equal(analysis.moves.length, placements);
    assert.deepEqual(
      analysis.moves.map((m: { moveIndex: number }) => record.moves[m.moveIndex].tile),
      analysis.moves.map((m: { tile: string }) => m.tile),
    );
    assert.ok(analysis.moves.every((m: { loss: number }) => m.loss >= 0));
    assert.deepEqual(
      analysis.seats.map((s: { name: string }) => s.name),
      record.players,
    );
    assert.deepEqual((await get(server.base, `/api/games/${id}/analysis`)).body, analysis);
    assert.deepEqual((await get(server.base, `/api/games/${id}/analysis?orNone=true`)).body, analysis);
    assert.equal((await post(server.base, `/api/games/${id}/analysis`, {})).status, 200, 'asking again answers the stored analysis');
    assert.equal((await get(server.base, '/api/games/nope/analysis')).status, 404);

    await server.app.close();
    server = await injectServer({ dataDir });
    assert.deepEqual((await get(server.base, `/api/games/${id}/analysis`)).body, analysis, 'stored with the game');
  } finally {
    await server.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Reads a server-sent event stream to its end. */
async function readEvents(base: Endpoint, path: string): Promise<{ event: string; data: any }[]> {
  const response = await request(base, 'GET', path);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  return response.text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) };
    });
}

test('hints: one person against bots asks for the strongest move; counted, refused elsewhere', async () => {
  const server = await injectServer();
  try {
    const twoPeople = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], hints: true });
    assert.equal(twoPeople.status, 400);
    assert.match(twoPeople.body.message, /one person against bots/);

    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { hints: true });
    const ann = await Client.join(server.ws, id, tokens.get(0));
    const view = (await ann.latestState((f) => f.view.legal, 20_000)).view;
    assert.equal(view.hints, true);
    assert.equal(view.seats[0].hints, 0);
    ann.send({ type: 'hint', turn: view.turn + 1, id: 'early' });
    assert.equal((await ann.next((f) => f.type === 'error')).code, 'stale_turn');
    ann.send({ type: 'hint', turn: view.turn, id: 'h1' });
    const hint = await ann.next((f) => f.type === 'hint', 20_000);
    assert.deepEqual([hint.turn, hint.ref], [view.turn, 'h1']);
    const legal = view.legal.find((p: { x: number; y: number; rotation: number }) => p.x === hint.move.x && p.y === hint.move.y && p.rotation === hint.move.rotation);
    assert.ok(legal, 'the hint is a legal placement');
    assert.ok(hint.move.meeple === null || legal.meeples.includes(hint.move.meeple));
    assert.equal((await ann.latestState((f) => f.view.seats[0].hints === 1)).view.turn, view.turn, 'counted, and nothing was played');

    const watcher = await Client.join(server.ws, id);
    watcher.send({ type: 'hint', turn: view.turn });
    assert.equal((await watcher.next((f) => f.type === 'error')).code, 'not_seated');

    const plain = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const bob = await Client.join(server.ws, plain.id, plain.tokens.get(0));
    const bobView = (await bob.latestState((f) => f.view.legal)).view;
    assert.equal(bobView.hints, false);
    assert.equal(bobView.seats[0].hints, undefined);
    bob.send({ type: 'hint', turn: bobView.turn });
    assert.equal((await bob.next((f) => f.type === 'error')).code, 'hints_off');
  } finally {
    await server.app.close();
  }
});

test('a pool that cannot analyse: the job fails after its retries, is answered as failed, and asking again starts afresh', async () => {
  // A real worker module without the analysis task: every position fails on the worker.
  const { pool, close } = makePool(fixture('pool-hang-worker.mjs'));
  try {
    await pool.start();
    const service = new AnalysisService({ pool, store: new MemoryStore(), log: silent, maxJobs: 2 });
    const record = toRecord(midGame('analysis-d', 4), ['Ann', 'Bob'], 'analysis-d');
    const failed = once(service, 'update');
    assert.equal(service.request('g1', record)?.status, 'running');
    const [answer] = await failed;
    assert.deepEqual([answer.gameId, answer.status], ['g1', 'failed']);
    assert.match((answer as { message: string }).message, /No handler function/, "the worker's own error");
    assert.equal((await service.status('g1'))?.status, 'failed', 'remembered as failed, not as never asked');
    assert.equal(service.request('g1', record)?.status, 'running', 'asking again starts afresh');
    assert.equal(service.request('g2', record)?.status, 'queued');
    assert.throws(() => service.request('g3', record), AnalysisQueueFullError);
    service.close();
  } finally {
    await close();
  }
});
