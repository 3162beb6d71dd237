// Games that survive: SIGKILL and restart on the same data directory, reconnection with the
// seat token, the turn clock and the away stand-in with the seat taken back, spectators, rematch,
// and finished games listed from the store.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { replayRecord } from '../bot-engine/record.ts';
import { Rng } from '../bot-engine/rng.ts';
import { Client, createGame, get, playUntilOver, post, type Injected, injectServer } from './server-helpers.ts';

const MAIN = fileURLToPath(new URL('../dist/server/main.js', import.meta.url));

interface Child {
  proc: ChildProcess;
  base: string;
  ws: string;
}

/** Server processes still running. A test that times out is abandoned, not unwound: its
 * `finally` never kills its server, whose process and pipes would keep this file (and the whole
 * run) from ever ending. Whatever is left is killed once the file's tests are done. */
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** `npm start`'s process on a data directory; resolves once it logs that it is ready. */
async function startChild(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TESSERA_DATA_DIR: dataDir,
      TESSERA_BOT_WORKERS: '1',
      TESSERA_WARMUP_LEVEL: 'random',
      TESSERA_WS_RATE: '1000',
      TESSERA_WS_BURST: '1000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  let buffered = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not get ready')), 20000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        if (!line.includes('tessera ready')) continue;
        clearTimeout(timer);
        resolve(JSON.parse(line).url);
      }
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  proc.stdout!.resume();
  return { proc, base: url, ws: `${url.replace('http', 'ws')}/ws` };
}

const latest = new WeakMap<Client, any>();

/** The client's latest view once it satisfies `pred` (it may already). */
async function viewWhere(c: Client, pred: (view: any) => boolean, ms = 10000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    for (let i = c.frames.findIndex((f) => f.type === 'state'); i >= 0; i = c.frames.findIndex((f) => f.type === 'state')) latest.set(c, c.frames.splice(i, 1)[0].view);
    const view = latest.get(c);
    if (view && pred(view)) return view;
    latest.set(c, (await c.next((f) => f.type === 'state', Math.max(1, until - Date.now()))).view);
  }
}

async function killHard(child: Child): Promise<void> {
  if (child.proc.exitCode !== null) return;
  const exited = new Promise((r) => child.proc.once('exit', r));
  child.proc.kill('SIGKILL');
  await exited;
}

// Four server processes start in turn (~1 s each alone, 7 s in all): a machine loaded ten times
// over starts each in 10-20 s, which ran out a 120 s timeout twice.
test('SIGKILL at random points: no accepted move is lost, and the game plays on to the end', { timeout: 300_000 }, async () => {
  const rng = new Rng(`kill-${Date.now()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-kill-'));
  let server: Child | null = null;
  try {
    server = await startChild(dataDir);
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const token = tokens.get(0)!;
    let seenBoard: { tile: string; x: number; y: number; rotation: number }[] = [];
    // A person places about 35 tiles in a two-seat game: three kills within the first 25.
    for (const killAfter of [1 + rng.below(5), 4 + rng.below(7), 4 + rng.below(7)]) {
      const me = await Client.join(server.ws, id, token);
      let view = await viewWhere(me, () => true);
      assert.ok(view.board.length >= seenBoard.length, `restart kept ${view.board.length} of ${seenBoard.length} tiles`);
      assert.deepEqual(view.board.slice(0, seenBoard.length), seenBoard, 'every acknowledged tile is where it was');
      let myMoves = 0;
      while (myMoves < killAfter) {
        view = await viewWhere(me, (v) => v.currentSeat === 0 && v.legal !== null);
        const p = view.legal[rng.below(view.legal.length)];
        me.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: p.meeples.length && rng.below(3) === 0 ? p.meeples[0] : null } });
        myMoves++;
        if (myMoves === killAfter) break; // kill with this move in flight: stored or not, never half
        const turn = view.turn;
        seenBoard = (await viewWhere(me, (v) => v.turn > turn)).board;
      }
      await new Promise((r) => setTimeout(r, rng.below(15)));
      await killHard(server);
      server = await startChild(dataDir);
    }
    const me = await Client.join(server.ws, id, token);
    const resumed = await viewWhere(me, () => true);
    assert.deepEqual(resumed.board.slice(0, seenBoard.length), seenBoard);
    // The log survives the restarts too: the welcome's history is every tile after the start tile.
    const logged = me.welcome.history.map((m: any) => ({ tile: m.tile, x: m.move.x, y: m.move.y, rotation: m.move.rotation }));
    assert.deepEqual(logged, resumed.board.slice(1));
    me.frames.unshift({ type: 'state', view: resumed, last: null }); // playUntilOver starts from it
    const final = await playUntilOver(new Map([[0, me]]), 60000);
    assert.equal(final.status, 'finished');
    const record = await get(server.base, `/api/games/${id}/record`);
    assert.equal(record.status, 200);
    assert.deepEqual(
      Object.values(replayRecord(record.body).scores),
      final.seats.map((s: { score: number }) => s.score),
    );
    me.close();
  } finally {
    if (server) await killHard(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a waiting game survives a restart; a person may not take the name an open seat shows', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-names-'));
  let server: Child | null = null;
  try {
    server = await startChild(dataDir);
    const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }] });
    const id = created.body.id;
    // The record names an open seat "open seat 2"; the names in a record must be distinct, so no
    // person may be called that.
    const taken = await post(server.base, `/api/games/${id}/seats`, { name: 'open seat 2', seat: 0 });
    assert.deepEqual([taken.status, taken.body.code], [400, 'name_invalid']);
    assert.equal((await post(server.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 })).status, 201);
    await killHard(server);
    server = await startChild(dataDir);
    const game = await get(server.base, `/api/games/${id}`);
    assert.equal(game.status, 200);
    assert.equal(game.body.status, 'waiting');
    const joined = await post(server.base, `/api/games/${id}/seats`, { name: 'Bea', seat: 1 });
    assert.equal(joined.status, 201);
    const bea = await Client.join(server.ws, id, joined.body.token);
    assert.equal((await viewWhere(bea, (v) => v.status === 'playing')).seats[0].name, 'Ann');
    bea.close();
  } finally {
    if (server) await killHard(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

let server: Injected;
before(async () => {
  server = await injectServer();
});
after(async () => {
  await server.app.close();
});

test('a dropped connection reconnects with its token and gets its full view', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const first = await Client.join(server.ws, id, tokens.get(0));
  const before = (await first.latestState((f) => f.view.legal !== null)).view;
  first.socket.close();
  await first.closedWith();
  const again = await Client.join(server.ws, id, tokens.get(0));
  const view = (await again.latestState((f) => f.view.legal !== null)).view;
  assert.equal(view.you, 0);
  assert.equal(view.turn, before.turn);
  assert.deepEqual(view.legal, before.legal);
  const bad = await Client.connect(server.ws);
  bad.send({ type: 'hello', v: 1, gameId: id, token: 'not-a-token' });
  assert.equal((await bad.next((f) => f.type === 'error')).code, 'bad_token');
  for (const c of [again, bad]) c.close();
});

test('turn clock at five seats: a bot plays a timed-out person, who then takes the seat back', async () => {
  const bots = Array(3).fill({ kind: 'bot', level: 'random' });
  const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }, ...bots], clock: { turnSeconds: 1 }, standIn: 'random' });
  assert.equal(created.status, 201);
  assert.equal(created.body.clock.turnSeconds, 1);
  const id = created.body.id;
  const tokenA = (await post(server.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 })).body.token;
  const tokenB = (await post(server.base, `/api/games/${id}/seats`, { name: 'Ben', seat: 1 })).body.token;
  const a = await Client.join(server.ws, id, tokenA);
  const b = await Client.join(server.ws, id, tokenB);
  const start = (await a.latestState((f) => f.view.status === 'playing')).view;
  assert.equal(start.currentSeat, 0);
  assert.ok(start.clock.deadline > Date.now(), 'the clock runs for the seat to move');
  // Ann lets her time run out: a stand-in bot places her tile, and everyone sees it.
  const played = await b.next((f) => f.type === 'state' && f.last?.seat === 0, 5000);
  assert.equal(played.last.bot.standIn, true);
  assert.equal(played.view.seats[0].standIn, 'clock');
  // Ben moves; the stand-in keeps playing Ann until she claims her seat back.
  let v = (await b.latestState((f) => f.view.currentSeat === 1 && f.view.legal !== null)).view;
  b.send({ type: 'move', turn: v.turn, move: { x: v.legal[0].x, y: v.legal[0].y, rotation: v.legal[0].rotation, meeple: null } });
  await b.next((f) => f.type === 'state' && f.last?.seat === 0 && f.last.turn > v.turn, 5000);
  a.send({ type: 'claim' });
  // One read, not one for the claim and then one for the turn: the first drained the frame with
  // Ann's turn when Ben's clock had run out meanwhile. (Turn 0's frames show no stand-in either.)
  v = (await a.latestState((f) => f.view.turn > v.turn && f.view.currentSeat === 0 && f.view.legal !== null && f.view.seats[0].standIn === null)).view;
  a.send({ type: 'move', turn: v.turn, move: { x: v.legal[0].x, y: v.legal[0].y, rotation: v.legal[0].rotation, meeple: null } });
  const mine = await b.next((f) => f.type === 'state' && f.last?.seat === 0 && f.last.turn === v.turn);
  assert.equal(mine.last.bot, undefined, 'Ann placed that tile herself');
  for (const c of [a, b]) c.close();
});

test('away past the grace period: a bot plays the seat until the person reconnects', async () => {
  const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null, graceSeconds: 1 }, standIn: 'random' });
  const id = created.body.id;
  const tokenA = (await post(server.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 })).body.token;
  const tokenB = (await post(server.base, `/api/games/${id}/seats`, { name: 'Ben', seat: 1 })).body.token;
  const b = await Client.join(server.ws, id, tokenB);
  // Ann never connects: after a second, the stand-in plays her turns.
  const played = await b.next((f) => f.type === 'state' && f.last?.seat === 0, 5000);
  assert.equal(played.view.seats[0].standIn, 'away');
  const a = await Client.join(server.ws, id, tokenA);
  const back = (await a.latestState()).view;
  assert.equal(back.seats[0].standIn, null, 'reconnecting takes the seat back');
  assert.equal(back.seats[0].connected, true);
  for (const c of [a, b]) c.close();
});

test('a solo game against bots has no turn clock by default; with more people it has one', async () => {
  const { id } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  assert.equal((await get(server.base, `/api/games/${id}`)).body.clock.turnSeconds, null);
  const duo = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }] });
  assert.equal(duo.body.clock.turnSeconds, 120);
});

test('spectators get the public view only: no legal placements, no tokens', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const watcher = await Client.join(server.ws, id);
  const me = await Client.join(server.ws, id, tokens.get(0));
  const final = await playUntilOver(new Map([[0, me]]));
  await watcher.latestState((f) => f.view.status === 'finished');
  const raw = JSON.stringify(watcher.frames) + JSON.stringify(final);
  assert.ok(!raw.includes(tokens.get(0)!), 'no token in any frame');
  const frames = [...watcher.frames];
  watcher.frames.length = 0;
  assert.ok(frames.every((f) => f.type !== 'state' || (f.view.legal === null && f.view.you === null)));
  watcher.send({ type: 'move', turn: 0, move: { x: 0, y: 1, rotation: 0, meeple: null } });
  assert.equal((await watcher.next((f) => f.type === 'error')).code, 'not_seated');
  watcher.send({ type: 'claim' });
  assert.equal((await watcher.next((f) => f.type === 'error')).code, 'not_seated');
  for (const c of [watcher, me]) c.close();
});

test('rematch of a five-seat game: the same seats start a new game; finished games are listed with their scores', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'greedy' }, ...Array(3).fill({ kind: 'bot', level: 'random' })], undefined, { listed: true });
  const me = await Client.join(server.ws, id, tokens.get(0));
  const final = await playUntilOver(new Map([[0, me]]));
  me.close();
  assert.equal((await post(server.base, `/api/games/${id}/rematch`, { token: 'wrong' })).status, 403);
  const again = await post(server.base, `/api/games/${id}/rematch`, { token: tokens.get(0) });
  assert.equal(again.status, 201);
  assert.equal(again.body.seat, 0);
  const next = await get(server.base, `/api/games/${again.body.gameId}`);
  assert.equal(next.body.status, 'playing');
  assert.deepEqual(
    next.body.seats.map((s: { kind: string; level?: string; name: string }) => [s.kind, s.level, s.name]),
    final.seats.map((s: { kind: string; level?: string; name: string }) => [s.kind, s.level, s.name]),
  );
  assert.equal((await get(server.base, `/api/games/${id}`)).body.rematch, again.body.gameId);
  // Asking twice gives the same game and seat (with a fresh token); nobody else can take it.
  const twice = await post(server.base, `/api/games/${id}/rematch`, { token: tokens.get(0) });
  assert.equal(twice.body.gameId, again.body.gameId);
  assert.equal((await post(server.base, `/api/games/${again.body.gameId}/seats`, { name: 'Eve' })).status, 409);
  const ws = await Client.join(server.ws, again.body.gameId, twice.body.token);
  assert.equal((await ws.latestState()).view.you, 0);
  ws.close();

  const listed = await get(server.base, `/api/games/finished?player=${encodeURIComponent(final.seats[0].name)}`);
  assert.equal(listed.status, 200);
  const entry = listed.body.games.find((g: { id: string }) => g.id === id);
  assert.ok(entry, 'the finished game is listed under its player');
  assert.deepEqual(
    entry.players.map((p: { score: number }) => p.score),
    final.seats.map((s: { score: number }) => s.score),
  );
  assert.equal((await get(server.base, '/api/games/finished?before=garbage')).status, 400);
});

/** A guest session on a child server: the cookie its answer set. */
async function guestOn(base: string, name: string): Promise<{ cookie: string; id: string }> {
  const res = await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  assert.equal(res.status, 201);
  const cookie = res.headers.getSetCookie()[0].split(';')[0];
  return { cookie, id: ((await res.json()) as { player: { id: string } }).player.id };
}

test('SIGKILL between a rated game’s end and its answer: ratings move exactly once', { timeout: 180_000 }, async () => {
  const rng = new Rng(`rated-kill-${Date.now()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-rated-kill-'));
  let server: Child | null = null;
  try {
    server = await startChild(dataDir);
    const ann = await guestOn(server.base, 'Killed Ann');
    for (let round = 0; round < 3; round++) {
      const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], rated: true });
      const id = created.body.id as string;
      const seat = await fetch(`${server.base}/api/games/${id}/seats`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: ann.cookie }, body: '{"name":"x"}' });
      const { token } = (await seat.json()) as { token: string };
      const me = await Client.join(server.ws, id, token);
      // Play to the last tile or two, send the move that ends the game (or lets the bot end it), and
      // kill the server a few milliseconds later: before, during or after the end's commit.
      for (;;) {
        // A discarded (unplaceable) draw shifts whose turn the last tile is: the bot may end the game.
        const view = await viewWhere(me, (v) => v.status === 'finished' || (v.currentSeat === 0 && v.legal !== null), 30_000);
        if (view.status === 'finished') break;
        const p = view.legal[rng.below(view.legal.length)];
        me.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
        if (view.tilesLeft <= 1) break;
        await viewWhere(me, (v) => v.turn > view.turn, 30_000);
      }
      await new Promise((r) => setTimeout(r, rng.below(8)));
      await killHard(server);
      server = await startChild(dataDir);
      const game = (await get(server.base, `/api/games/${id}`)).body;
      if (game.status !== 'finished') {
        // The end was not stored: no rating moved; the game plays on to its end after the restart.
        const again = await Client.join(server.ws, id, token);
        const resumed = await viewWhere(again, () => true);
        again.frames.unshift({ type: 'state', view: resumed, last: null });
        await playUntilOver(new Map([[0, again]]), 60_000);
        again.close();
      }
      const changes = (await get(server.base, `/api/players/${ann.id}/ratings`)).body.changes as { gameId: string }[];
      assert.equal(changes.filter((c) => c.gameId === id).length, 1, `round ${round}: one rating change for the game (it was ${game.status} after the kill)`);
      assert.equal(changes.length, round + 1);
    }
  } finally {
    if (server) await killHard(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
