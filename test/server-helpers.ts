// Shared by the server tests: a listening app on 127.0.0.1 port 0, and a small WebSocket
// client (Node's global WebSocket) that queues frames for the test to await.

import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { type Config, loadConfig } from '../server/config.ts';

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

export interface Running {
  app: FastifyInstance;
  base: string;
  ws: string;
}

export async function startServer(overrides: Partial<Config> = {}, waitForPool = true): Promise<Running> {
  const app = await buildApp(testConfig(overrides));
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (waitForPool) await app.tessera.poolStarted;
  const { port } = app.server.address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/ws` };
}

export async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function get(base: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path);
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** Creates a game and takes every person seat; returns the id and one token per person seat. */
export async function createGame(base: string, seats: { kind: 'person' | 'bot'; level?: string }[]): Promise<{ id: string; tokens: Map<number, string> }> {
  const created = await post(base, '/api/games', { seats });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const tokens = new Map<number, string>();
  for (const [i, s] of seats.entries()) {
    if (s.kind !== 'person') continue;
    const joined = await post(base, `/api/games/${created.body.id}/seats`, { name: `person ${i}`, seat: i });
    if (joined.status !== 201) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
    tokens.set(i, joined.body.token);
  }
  return { id: created.body.id, tokens };
}

export class Client {
  readonly socket: WebSocket;
  readonly frames: any[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number; reason: string } | null = null;
  /** The welcome frame, once `join` has had it. */
  welcome: any = null;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (e) => {
      this.frames.push(JSON.parse(String(e.data)));
      this.wake();
    });
    socket.addEventListener('close', (e) => {
      this.closed = { code: e.code, reason: e.reason };
      this.wake();
    });
  }

  static async connect(url: string): Promise<Client> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('websocket connect failed')), { once: true });
    });
    return new Client(socket);
  }

  /** Connects and says hello; resolves after the welcome frame. */
  static async join(url: string, gameId: string, token?: string): Promise<Client> {
    const c = await Client.connect(url);
    c.send({ type: 'hello', v: 1, gameId, ...(token ? { token } : {}) });
    c.welcome = await c.next((f) => f.type === 'welcome');
    return c;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Removes and returns the first queued frame matching `pred`, waiting up to `ms`. */
  async next(pred: (f: any) => boolean = () => true, ms = 5000): Promise<any> {
    const until = Date.now() + ms;
    for (;;) {
      const i = this.frames.findIndex(pred);
      if (i >= 0) return this.frames.splice(i, 1)[0];
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting; frames: ${JSON.stringify(this.frames).slice(0, 500)}`);
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${ms} ms; queued: ${JSON.stringify(this.frames.map((f) => f.type))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The latest state frame queued (drains older ones), waiting for one if none. */
  async latestState(pred: (f: any) => boolean = () => true, ms = 5000): Promise<any> {
    let f = await this.next((x) => x.type === 'state' && pred(x), ms);
    for (;;) {
      const i = this.frames.findIndex((x) => x.type === 'state' && pred(x));
      if (i < 0) return f;
      f = this.frames.splice(i, 1)[0];
    }
  }

  /** The latest state frame, left in the queue. */
  async peekState(ms = 5000): Promise<any> {
    await this.next((f) => f.type === 'state', ms).then((f) => this.frames.unshift(f));
    return this.frames.findLast((f) => f.type === 'state');
  }

  async closedWith(ms = 5000): Promise<{ code: number; reason: string }> {
    const until = Date.now() + ms;
    while (!this.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    if (!this.closed) throw new Error('socket did not close');
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }
}

/** Plays seat moves (a legal placement, a follower now and then) until the game ends;
 * returns the final view. */
export async function playUntilOver(clients: Map<number, Client>, ms = 30000): Promise<any> {
  const until = Date.now() + ms;
  const views = new Map<number, any>();
  const sent = new Map<number, number>();
  while (Date.now() < until) {
    for (const [seat, c] of clients) {
      if (c.closed) throw new Error(`socket closed: ${JSON.stringify(c.closed)}`);
      const i = c.frames.findLastIndex((f) => f.type === 'state');
      if (i >= 0) views.set(seat, c.frames[i].view);
      c.frames.length = 0;
      const view = views.get(seat);
      if (!view) continue;
      if (view.status === 'finished') return view;
      if (view.currentSeat === seat && view.legal && view.legal.length > 0 && sent.get(seat) !== view.turn) {
        sent.set(seat, view.turn);
        const p = view.legal[view.turn % view.legal.length];
        const meeple = view.turn % 3 === 0 && p.meeples.length > 0 ? p.meeples[0] : null;
        c.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple } });
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`game did not finish in time; last turns ${JSON.stringify([...views.values()].map((v) => v.turn))}`);
}
