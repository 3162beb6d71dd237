// Shared by the server tests: an app reached in-process (app.inject, app.injectWS: no port) or
// listening on 127.0.0.1 port 0 where a real socket is the point, and the shared Node game client
// (support/game-client.ts) that queues frames for the test to await. Both kinds of server are
// used through the same calls: `post(server.base, …)`, `createGame(server.base, …)`,
// `Client.join(server.ws, …)`.

import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../server/app.ts';
import { type Config, loadConfig } from '../server/config.ts';
import { createGame as createGameOver, GameSocket, type HttpAnswer, http, openWebSocket, randomMove, type Requester } from '../support/game-client.ts';
import { rng } from '../support/random.ts';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Metrics } from '../server/metrics.ts';
import { BotPool } from '../server/pool/pool.ts';
import type { GameSetup } from '../server/games/store.ts';
import { legalPlacements, playMove, tileName } from '../bot-engine/game.ts';
import type { RecordMove } from '../bot-engine/record.ts';
import { Rng } from '../bot-engine/rng.ts';
import type { GameState } from '../bot-engine/state.ts';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      dataDir: ':memory:',
      botWorkers: 1,
      warmupLevel: 'random',
      botDeadlineMs: 1000,
      wsMessagesPerSecond: 1000,
      wsBurst: 1000,
      shutdownGraceMs: 1000,
      ...overrides,
    },
  );
}

/** Where a test's requests and sockets go: a listening server's URL, or the app itself (reached
 * through app.inject and app.injectWS). */
export type Endpoint = string | FastifyInstance;

/** A server listening on a port: for what needs a real socket (heartbeats, slow consumers,
 * per-address caps, shutdown, child processes, other instances). */
export interface Running {
  app: FastifyInstance;
  base: string;
  ws: string;
}

/** A server reached in-process, without a port. */
export interface Injected {
  app: FastifyInstance;
  base: FastifyInstance;
  ws: FastifyInstance;
}

export async function startServer(overrides: Partial<Config> = {}, waitForPool = true, options: BuildOptions = {}): Promise<Running> {
  const app = await buildApp(testConfig(overrides), options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (waitForPool) await app.poolStarted;
  const { port } = app.server.address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/ws` };
}

export async function injectServer(overrides: Partial<Config> = {}, waitForPool = true, options: BuildOptions = {}): Promise<Injected> {
  const app = await buildApp(testConfig(overrides), options);
  await app.ready();
  if (waitForPool) await app.poolStarted;
  return { app, base: app, ws: app };
}

/** One HTTP request, answered as support/game-client's `http` answers it. */
export async function request(to: Endpoint, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  if (typeof to === 'string') return http(to, method, path, body);
  const res = await to.inject({ method: method as 'GET', url: path, ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  let parsed: unknown = null;
  try {
    parsed = res.body ? JSON.parse(res.body) : null;
  } catch {
    // not JSON (e.g. /metrics)
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
  return { status: res.statusCode, body: parsed, text: res.body, headers };
}

const requester =
  (to: Endpoint): Requester =>
  (method, path, body) =>
    request(to, method, path, body);

export async function post(base: Endpoint, path: string, body: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  return request(base, 'POST', path, body);
}

export async function get(base: Endpoint, path: string): Promise<{ status: number; body: any }> {
  const answer = await request(base, 'GET', path);
  return { status: answer.status, body: answer.body ?? answer.text };
}

/** Creates a game and takes every person seat (support/game-client's `createGame`, over either endpoint). */
export function createGame(base: Endpoint, ...rest: Parameters<typeof createGameOver> extends [unknown, ...infer R] ? R : never): ReturnType<typeof createGameOver> {
  return createGameOver(requester(base), ...rest);
}

/** The game client, connected to a listening server's /ws or through app.injectWS. */
export class Client extends GameSocket {
  /** `headers` (in-process only): the upgrade request's, such as a session cookie. */
  static override async connect(to: Endpoint, headers: Record<string, string> = {}): Promise<Client> {
    if (typeof to === 'string') return new Client(await openWebSocket(to));
    const socket = await to.injectWS('/ws', { headers });
    // injectWS joins the two ends with in-memory streams that never emit 'close' after a clean
    // WebSocket close, so ws on each side would wait out its 30-s close timeout: the client's end
    // of the stream is destroyed instead, which both sides see at once, as after a TCP close.
    const stream = (socket as unknown as { _socket: { end: () => void; destroy: () => void } })._socket;
    stream.end = () => stream.destroy();
    return new Client(socket);
  }

  static override async join(to: Endpoint, gameId: string, token?: string, version?: number): Promise<Client> {
    const c = await Client.connect(to);
    await c.hello(gameId, token, version);
    return c;
  }
}

/** Plays seat moves (a legal placement, a follower now and then) until the game ends;
 * returns the final view. Woken by each frame, not by polling. */
export function playUntilOver(clients: Map<number, Client>, ms = 30000): Promise<any> {
  return playUntil(clients, (view) => view.status === 'finished', ms);
}

/** Plays random moves until the game reaches `turns` turns (or ends); resolves with that view. */
export function playTurns(clients: Map<number, Client>, turns: number, ms = 30000): Promise<any> {
  return playUntil(clients, (view) => view.status === 'finished' || view.turn >= turns, ms);
}

async function playUntil(clients: Map<number, Client>, done: (view: any) => boolean, ms: number): Promise<any> {
  const until = Date.now() + ms;
  const views = new Map<number, any>();
  const sent = new Map<number, number>();
  const random = rng(1);
  while (Date.now() < until) {
    for (const [seat, c] of clients) {
      if (c.closed) throw new Error(`socket closed: ${JSON.stringify(c.closed)}`);
      const i = c.frames.findLastIndex((f) => f.type === 'state');
      if (i >= 0) views.set(seat, c.frames[i].view);
      c.frames.length = 0;
      const view = views.get(seat);
      if (!view) continue;
      if (done(view)) return view;
      if (view.currentSeat === seat && view.legal && view.legal.length > 0 && sent.get(seat) !== view.turn) {
        sent.set(seat, view.turn);
        c.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.3) });
      }
    }
    await Promise.race([...clients.values()].map((c) => c.activity(until - Date.now())));
  }
  throw new Error(`game did not get there in time; last turns ${JSON.stringify([...views.values()].map((v) => v.turn))}`);
}

/** A worker module under test/fixtures/. */
/** Options for `t.waitFor`: tests poll a condition, never sleep a fixed time; a loaded machine only
 * makes the wait longer. */
export const WAIT = { timeout: 10_000, interval: 10 };

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Nice values of this process's threads, by Linux thread id (field 19 of /proc/.../stat). */
export function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {} // a thread that ended meanwhile
  }
  return nices;
}

/** How many of this process's threads run at nice `n`. */
export const threadsAtNice = (n: number): number => [...threadNices().values()].filter((v) => v === n).length;

/** A real pool on its own (no server): `workerFile` null is the compiled product worker. */
export function makePool(workerFile: string | null, opts: { workers?: number; maxQueue?: number; warmupTimeoutMs?: number; workerNice?: number } = {}) {
  const metrics = new Metrics();
  const workers = opts.workers ?? 1;
  const sizing = { workers, reason: 'test', availableParallelism: 2, quotaCpus: null, quotaSource: 'test', usableCores: 2, reservedCores: 1, setting: workers };
  const pool = new BotPool({
    sizing,
    maxQueue: opts.maxQueue ?? 8,
    workerFile,
    warmupLevel: 'random',
    warmupTimeoutMs: opts.warmupTimeoutMs ?? 10000,
    workerNice: opts.workerNice,
    logger: pino({ level: 'silent' }),
    metrics,
  });
  return {
    pool,
    metrics,
    close: async () => {
      await pool.close();
      metrics.close();
    },
  };
}

/** A stored game's setup for store-level tests: two person seats, no clock. */
export const twoPeopleSetup = (id: string): GameSetup => ({
  id,
  createdAt: new Date().toISOString(),
  seed: 's',
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'person' }],
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
});

/** Random legal placements (no followers) played on `state`, as the record entries a server would
 * store, until there are `n` of them or the game is over. */
export function randomRecordMoves(state: GameState, seed: number, n = Number.POSITIVE_INFINITY): RecordMove[] {
  const random = new Rng(seed);
  const moves: RecordMove[] = [];
  while (moves.length < n && !state.finished) {
    const tile = tileName(state.currentTile);
    const options = legalPlacements(state);
    const p = options[random.below(options.length)];
    const outcome = playMove(state, { x: p.x, y: p.y, rotation: p.rotation, meeple: null });
    if ('error' in outcome) throw new Error(outcome.error);
    moves.push({ tile, ...outcome.move }, ...outcome.discarded.map((d) => ({ discard: d })));
  }
  return moves;
}
