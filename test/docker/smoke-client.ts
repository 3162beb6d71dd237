// The client half of the container smoke test (scripts/docker-smoke.sh); works against any
// running server too:  SMOKE_BASE=http://127.0.0.1:3000 node test/docker/smoke-client.ts play
//
//   play  /healthz, /readyz, /api/pool (pool sized from the CPU limit), /, /metrics; a whole game
//         against a greedy bot over the WebSocket API (docs/PROTOCOL.md) and its record; a
//         second game left mid-play
//   find  after a restart on the same data: the unfinished game is there at the same turn, its
//         seat token still works and one more move gets a bot answer; the finished game's
//         record is still served
//
// Each check is one line "pass|fail<TAB>message" appended to $SMOKE_STATE.results; the
// game (id, token, turn) is kept in $SMOKE_STATE between the two runs. Exit code 0 unless the
// client itself broke. Env: SMOKE_BASE, SMOKE_STATE, SMOKE_EXPECT_WORKERS (default 1),
// SMOKE_EXPECT_CPUS (default 1), SMOKE_MOVES (our placements in `play`, default 6).

import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { GameSocket, http as request, randomMove } from '../../support/game-client.ts';
import { rng } from '../../support/random.ts';
import type { GameView } from '../../server/wire/game.ts';
import type { ServerFrame } from '../../server/ws/protocol.ts';

const base = process.env.SMOKE_BASE ?? 'http://127.0.0.1:3000';
const statePath = process.env.SMOKE_STATE ?? 'smoke-state.body';
const resultsPath = `${statePath}.results`;
const expectWorkers = Number(process.env.SMOKE_EXPECT_WORKERS ?? 1);
const expectCpus = Number(process.env.SMOKE_EXPECT_CPUS ?? 1);
const ourMoves = Number(process.env.SMOKE_MOVES ?? 6);
const random = rng(7);

function result(kind: 'pass' | 'fail', message: string): void {
  appendFileSync(resultsPath, `${kind}\t${message.replace(/[\t\n]+/g, ' ')}\n`);
  console.log(`  ${kind === 'pass' ? 'ok  ' : 'FAIL'} - ${message}`);
}
const check = (ok: boolean, message: string, detail = ''): boolean => {
  result(ok ? 'pass' : 'fail', ok || !detail ? message : `${message}: ${detail}`);
  return ok;
};

interface Saved {
  /** A finished game (its record must stay available). */
  finishedId: string | null;
  /** An unfinished game, left mid-play. */
  gameId: string;
  token: string;
  seat: number;
  turn: number;
}

const http = (method: string, path: string, body?: unknown) => request(base, method, path, body);

/** One WebSocket session on a seat: hello, then answer every `state` where it is our turn, until
 * `stop(view)` says so. Resolves with the last view and how many bot moves were seen. */
async function playSession(
  gameId: string,
  token: string,
  stop: (view: GameView, placed: number) => boolean,
  timeoutMs: number,
): Promise<{ view: GameView | null; placed: number; botMoves: number; welcome: boolean }> {
  const until = Date.now() + timeoutMs;
  const socket = await GameSocket.join(`${base.replace(/^http/, 'ws')}/ws`, gameId, token);
  const welcome = socket.welcome.gameId === gameId;
  let view: GameView | null = null;
  let placed = 0;
  let botMoves = 0;
  let sentTurn = -1;
  let lastSent = 0;
  try {
    for (;;) {
      const frame = (await socket
        .next(() => true, Math.max(1, until - Date.now()))
        .catch((e: Error) => {
          throw new Error(`game session: ${e.message} (placed ${placed}, bot moves ${botMoves}, turn ${view?.turn})`);
        })) as ServerFrame;
      if (frame.type === 'error') throw new Error(`server error frame: ${frame.code}: ${frame.message}`);
      if (frame.type === 'bye') throw new Error(`server said bye: ${frame.reason}`);
      if (frame.type !== 'state') continue;
      view = frame.view;
      if (frame.last && frame.last.seat !== view.you && frame.last.bot) botMoves++;
      if (stop(view, placed)) return { view, placed, botMoves, welcome };
      if (view.status !== 'playing' || view.currentSeat !== view.you || !view.legal || view.turn === sentTurn) continue;
      if (view.legal.length === 0) throw new Error(`our turn at ${view.turn} with no legal placement`);
      sentTurn = view.turn;
      placed++;
      // Paced under the server's per-socket message rate limit (TESSERA_WS_RATE, default 10/s).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastSent + 150 - Date.now())));
      lastSent = Date.now();
      socket.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.3) });
    }
  } finally {
    socket.close();
  }
}

/** A whole game, person (us) against a greedy bot, to the last tile; then its record. */
async function fullGame(): Promise<string | null> {
  const created = await http('POST', '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'greedy' }] });
  if (!check(created.status === 201 && typeof created.body?.id === 'string', 'POST /api/games creates a person-vs-bot game', `${created.status} ${created.text.slice(0, 200)}`)) return null;
  const gameId: string = created.body.id;
  const joined = await http('POST', `/api/games/${gameId}/seats`, { name: 'smoke', seat: 0 });
  if (!check(joined.status === 201 && typeof joined.body?.token === 'string', 'POST /api/games/:id/seats gives a seat token', `${joined.status} ${joined.text.slice(0, 200)}`)) return null;
  const started = Date.now();
  try {
    const session = await playSession(gameId, joined.body.token, (view) => view.status === 'finished', 60_000);
    const v = session.view;
    check(
      session.welcome && v?.status === 'finished' && session.botMoves > 10,
      `a whole game against a greedy bot over the WebSocket: ${session.placed} placements of ours, ${session.botMoves} bot moves, ${v?.turn} turns, final scores ${v?.seats.map((s) => s.score).join(':')} (${Date.now() - started} ms)`,
      `welcome ${session.welcome}, status ${v?.status}`,
    );
  } catch (e) {
    check(false, 'a whole game against a greedy bot over the WebSocket', (e as Error).message);
    return null;
  }
  const record = await http('GET', `/api/games/${gameId}/record`);
  check(
    record.status === 200 && Array.isArray(record.body?.moves) && record.body.moves.length > 20,
    `GET /api/games/:id/record: ${record.body?.format} record with ${record.body?.moves?.length} moves`,
    `${record.status} ${record.text.slice(0, 200)}`,
  );
  return gameId;
}

async function play(): Promise<void> {
  const health = await http('GET', '/healthz');
  check(health.status === 200 && health.body?.status === 'ok', 'GET /healthz answers 200 {"status":"ok"}', `${health.status} ${health.text.slice(0, 100)}`);
  const ready = await http('GET', '/readyz');
  check(ready.status === 200, 'GET /readyz answers 200 (pool warm)', `${ready.status} ${ready.text.slice(0, 200)}`);

  const pool = await http('GET', '/api/pool');
  const sizing = pool.body?.sizing ?? {};
  check(
    pool.status === 200 && pool.body?.size === expectWorkers && sizing.quotaCpus === expectCpus && sizing.usableCores === expectCpus,
    `/api/pool: ${expectWorkers} worker(s) sized from the ${expectCpus}-CPU container limit (size ${pool.body?.size}, quota ${sizing.quotaCpus} from ${sizing.quotaSource}, usable ${sizing.usableCores} of ${sizing.availableParallelism}, reserved ${sizing.reservedCores}: ${sizing.reason})`,
    pool.text.slice(0, 300),
  );
  check(pool.body?.alive === expectWorkers && pool.body?.ready === true, `/api/pool: ${expectWorkers} worker(s) alive and ready`, `alive ${pool.body?.alive}, ready ${pool.body?.ready}`);

  const finishedId = await fullGame();

  const created = await http('POST', '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'greedy' }] });
  if (!check(created.status === 201 && typeof created.body?.id === 'string', 'POST /api/games creates a second game', `${created.status} ${created.text.slice(0, 200)}`)) return;
  const gameId: string = created.body.id;
  const joined = await http('POST', `/api/games/${gameId}/seats`, { name: 'smoke', seat: 0 });
  if (!check(joined.status === 201 && typeof joined.body?.token === 'string', 'POST /api/games/:id/seats on the second game', `${joined.status} ${joined.text.slice(0, 200)}`)) return;

  const started = Date.now();
  let session: Awaited<ReturnType<typeof playSession>>;
  try {
    session = await playSession(gameId, joined.body.token, (view, placed) => view.status === 'finished' || (placed >= ourMoves && view.currentSeat === view.you), 90_000);
  } catch (e) {
    check(false, 'a game left mid-play against a greedy bot over the WebSocket', (e as Error).message);
    return;
  }
  const v = session.view;
  check(
    session.welcome && v !== null && v.status === 'playing' && session.placed >= ourMoves && session.botMoves >= ourMoves - 1,
    `a game left mid-play against a greedy bot: ${session.placed} placements of ours, ${session.botMoves} bot moves, turn ${v?.turn}, ${v?.tilesLeft} tiles left, scores ${v?.seats.map((s) => s.score).join(':')} (${Date.now() - started} ms)`,
    `welcome ${session.welcome}, status ${v?.status}`,
  );
  const summary = await http('GET', `/api/games/${gameId}`);
  check(summary.status === 200 && summary.body?.turn === v?.turn, 'GET /api/games/:id agrees with the WebSocket view', `${summary.status} turn ${summary.body?.turn} vs ${v?.turn}`);

  const page = await http('GET', '/');
  check(page.status === 200 && /<html/i.test(page.text), 'GET / serves the browser client (dist/web/index.html)', `${page.status} ${page.text.slice(0, 120)}`);

  const metrics = await http('GET', '/metrics');
  const names = new Set([...metrics.text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
  check(
    metrics.status === 200 && names.size > 0 && [...names].some((n) => /bot|pool|worker/.test(n)),
    `GET /metrics: Prometheus text, ${names.size} metric families including the pool's`,
    `${metrics.status} ${metrics.text.slice(0, 200)}`,
  );

  const saved: Saved = { finishedId, gameId, token: joined.body.token, seat: 0, turn: v!.turn };
  writeFileSync(statePath, JSON.stringify(saved));
}

async function find(): Promise<void> {
  let saved: Saved;
  try {
    saved = JSON.parse(readFileSync(statePath, 'utf8')) as Saved;
  } catch {
    check(false, 'a game was saved by the play step', `no ${statePath}`);
    return;
  }
  const summary = await http('GET', `/api/games/${saved.gameId}`);
  if (
    !check(
      summary.status === 200 && summary.body?.turn === saved.turn && summary.body?.status === 'playing',
      `after restart on the same volume the game is there at turn ${saved.turn}`,
      `${summary.status} ${summary.text.slice(0, 200)}`,
    )
  )
    return;
  try {
    const session = await playSession(saved.gameId, saved.token, (view, placed) => placed >= 1 && view.currentSeat === view.you, 30_000);
    check(
      session.welcome && session.placed === 1 && session.botMoves >= 1,
      `the seat token still works after restart: one more move and a bot answer (turn ${session.view?.turn})`,
      `placed ${session.placed}, bot moves ${session.botMoves}`,
    );
  } catch (e) {
    check(false, 'the seat token still works after restart', (e as Error).message);
  }
  if (saved.finishedId) {
    const record = await http('GET', `/api/games/${saved.finishedId}/record`);
    check(record.status === 200 && Array.isArray(record.body?.moves), "after restart the finished game's record is still served", `${record.status} ${record.text.slice(0, 200)}`);
  }
}

const mode = process.argv[2];
try {
  if (mode === 'play') await play();
  else if (mode === 'find') await find();
  else throw new Error('usage: smoke-client.ts play|find');
} catch (e) {
  check(false, `smoke client ${mode}`, (e as Error).stack ?? String(e));
}
