// Hints are work a person asked for, not a bot's turn: one search per seat and turn however many
// sockets ask, on the pool below every bot move, never counted toward readiness or overload, and
// never on the main thread. Real workers, real SQLite (in memory).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { legalMoves, newGame, playMove } from '../bot-engine/game.ts';
import { hideBag } from '../bot-engine/rules.ts';
import { type Endpoint, Client, createGame, get, makePool, post, injectServer, WAIT } from './server-helpers.ts';

/** Log lines at warn or above. */
const loud = (lines: string[]) => lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 40);

async function metric(base: Endpoint, series: string): Promise<number> {
  const text = (await get(base, '/metrics')).body as string;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

test('a hint flood from one seat: one search per turn, new games and readiness unaffected, another game’s bot keeps its real search', async () => {
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  const server = await injectServer({ maxQueue: 8, logLevel: 'info' }, true, { logger });
  const { pool } = server.app;
  let flooding = true;
  let sampler: NodeJS.Timeout | undefined;
  const sockets: Client[] = [];
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { hints: true });
    for (let i = 0; i < 8; i++) sockets.push(await Client.join(server.ws, id, tokens.get(0)));
    const view = (await sockets[0].latestState((f) => f.view.legal, 20_000)).view;

    // Every socket asks again and again for the same turn's hint (under the per-connection rate).
    let sent = 0;
    const flood = (async () => {
      while (flooding) {
        for (const s of sockets) s.send({ type: 'hint', turn: view.turn });
        sent += sockets.length;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let maxBotQueue = 0;
    sampler = setInterval(() => (maxBotQueue = Math.max(maxBotQueue, pool.queueDepth)), 5);

    // Meanwhile another person plays a bot that must keep its real search.
    const victim = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'heuristic' }]);
    const bob = await Client.join(server.ws, victim.id, victim.tokens.get(0));
    while (sent < 400) await new Promise((r) => setTimeout(r, 20));
    const botSources: string[] = [];
    let v = (await bob.latestState((f) => f.view.currentSeat === 0 && f.view.legal, 20_000)).view;
    for (let moves = 0; moves < 3; moves++) {
      const p = v.legal[0];
      bob.send({ type: 'move', turn: v.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
      const before = v.turn;
      const after = await bob.latestState((f) => f.view.currentSeat === 0 && f.view.legal && f.view.turn > before + 1, 20_000);
      botSources.push(after.last.bot.source);
      v = after.view;
    }
    while (sent < 1000) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await get(server.base, '/readyz')).status, 200, 'hints never make the server unready');
    const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
    assert.equal(created.status, 201, `a new game is created during the flood: ${JSON.stringify(created.body)}`);
    assert.deepEqual(botSources, ['search', 'search', 'search'], 'the other game’s bot was neither degraded nor moved on the main thread');
    flooding = false;
    await flood;
    clearInterval(sampler);
    assert.ok(maxBotQueue <= 1, `hints never wait in the bot queue (deepest ${maxBotQueue})`);

    // Every ask got the one answer, counted once.
    const answers = await Promise.all(sockets.map((s) => s.next((f) => f.type === 'hint', 20_000)));
    assert.equal(new Set(answers.map((a) => JSON.stringify(a.move))).size, 1, 'one search, one answer');
    assert.equal((await sockets[0].latestState((f) => f.view.seats[0].hints !== undefined)).view.seats[0].hints, 1, 'counted once for the turn');
    assert.equal(await metric(server.base, 'tessera_hints_total{answer="search"}'), 1, 'one hint search for the turn');
    assert.equal(pool.summary().classes?.hint.runMs.count, 1, 'the pool ran one hint search');
    assert.equal(await metric(server.base, 'tessera_bot_moves_total{source="fallback"}'), 0, 'nothing ran on the main thread');
    const warnings = loud(logLines);
    assert.ok(
      warnings.length <= 5,
      `client-triggered log lines stay bounded: ${warnings.length} (${warnings
        .map((w) => w.msg)
        .join(' | ')
        .slice(0, 400)})`,
    );

    // The next turn has its own search.
    const ann = sockets[0];
    ann.frames.length = 0;
    const p = view.legal[0];
    ann.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
    const next = (await ann.latestState((f) => f.view.currentSeat === 0 && f.view.turn > view.turn && f.view.legal, 20_000)).view;
    ann.send({ type: 'hint', turn: next.turn });
    ann.send({ type: 'hint', turn: next.turn });
    await ann.next((f) => f.type === 'hint' && f.turn === next.turn, 20_000);
    await ann.next((f) => f.type === 'hint' && f.turn === next.turn, 20_000);
    assert.equal((await ann.latestState((f) => f.view.seats[0].hints === 2, 20_000)).view.turn, next.turn);
    assert.equal(await metric(server.base, 'tessera_hints_total{answer="search"}'), 2);
  } finally {
    flooding = false;
    clearInterval(sampler);
    for (const s of sockets) s.close();
    await server.app.close();
  }
});

test('a hint waits behind bot moves and answers hint_busy (retryable) when no worker is free in time', async () => {
  const server = await injectServer({ hintWaitMs: 200 });
  const { pool } = server.app;
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { hints: true });
    const ann = await Client.join(server.ws, id, tokens.get(0));
    const view = (await ann.latestState((f) => f.view.legal, 20_000)).view;
    // Bot searches keep the only worker busy well past the hint's wait: 40 warm expert searches
    // of the opening take ~25 ms each on a quiet machine, longer on a loaded one.
    const room = server.app.games.loaded(id);
    const busy = Array.from({ length: 40 }, (_, i) => pool.search({ state: room!.state.buffer.slice(0), level: 'expert', seed: i, deadline: Date.now() + 5000 }).catch(() => null));
    ann.send({ type: 'hint', turn: view.turn, id: 'h' });
    const refused = await ann.next((f) => f.type === 'error' || f.type === 'hint', 20_000);
    assert.deepEqual([refused.type, refused.code, refused.ref], ['error', 'hint_busy', 'h']);
    await Promise.all(busy);
    assert.equal(room!.view(0).seats[0].hints, 0, 'a refused hint is not counted');
    // Asking again once the pool is free starts a new search.
    ann.send({ type: 'hint', turn: view.turn, id: 'again' });
    const hint = await ann.next((f) => f.type === 'hint' || f.type === 'error', 20_000);
    assert.deepEqual([hint.type, hint.ref], ['hint', 'again']);
  } finally {
    await server.app.close();
  }
});

test('the hint frame comes before the state frame that counts it', async () => {
  const server = await injectServer();
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { hints: true });
    const ann = await Client.join(server.ws, id, tokens.get(0));
    const view = (await ann.latestState((f) => f.view.legal, 20_000)).view;
    ann.frames.length = 0;
    ann.send({ type: 'hint', turn: view.turn, id: 'h1' });
    const until = Date.now() + 20_000;
    while (!ann.frames.some((f) => f.type === 'state' && f.view.seats[0].hints === 1) && Date.now() < until) await ann.activity(until - Date.now());
    const kinds = ann.frames.map((f) => (f.type === 'state' ? `state:${f.view.seats[0].hints}` : f.type));
    assert.ok(kinds.indexOf('hint') >= 0 && kinds.indexOf('hint') < kinds.indexOf('state:1'), `hint first, then its count: ${kinds.join(', ')}`);
  } finally {
    await server.app.close();
  }
});

test('on one worker, a running hint yields to a bot search and runs again to the same answer', async (t) => {
  const { pool, close } = makePool(null);
  try {
    await pool.start();
    const s = newGame({ players: 2, seed: 'hint-yield' });
    for (let i = 0; i < 10; i++) playMove(s, legalMoves(s)[(i * 5) % legalMoves(s).length]);
    const view = hideBag(s.clone());
    const alone = await pool.hint({ state: view.buffer.slice(0), level: 'expert', seed: 3 }, 10_000, 10_000);
    const hint = pool.hint({ state: view.buffer.slice(0), level: 'expert', seed: 3 }, 10_000, 10_000);
    await t.waitFor(() => assert.equal(pool.summary().queue.inFlight, 1, 'the hint is on the worker'), WAIT);
    const bot = await pool.search({ state: view.buffer.slice(0), level: 'heuristic', seed: 1, deadline: Date.now() + 2000 });
    assert.ok(bot.move);
    assert.deepEqual((await hint).move, alone.move, 'the yielded hint is run again to the same move');
    const classes = pool.summary().classes!;
    assert.ok(classes.preemption.count >= 1, 'the running hint gave its worker up');
    assert.ok(classes.interactive.queueWaitMs.max < classes.hint.runMs.max, `bot wait ${classes.interactive.queueWaitMs.max} ms, hint run ${classes.hint.runMs.max} ms`);
    assert.equal(classes.hint.runMs.count, 2, 'each hint counted once, however often it yielded');
    assert.equal(pool.load, 0, 'hints never count toward the bot queue');
  } finally {
    await close();
  }
});
