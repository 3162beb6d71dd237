// The Node game client shared by the WebSocket load benchmark, the Docker smoke test and the
// server tests: HTTP calls to create a game and take seats, and a WebSocket session (Node's
// global WebSocket) that queues the server's frames for the caller to await, event-driven.

import type { Move, Placement } from '../server/wire/game.ts';
import type { CreateGameBody, SeatRequest } from '../server/wire/api.ts';
import { PROTOCOL_VERSION } from '../server/wire/version.ts';
import { ViewTracker } from '../server/wire/delta.ts';

export interface HttpAnswer {
  status: number;
  /** The body parsed as JSON, or null when it is not JSON. */
  body: any;
  text: string;
  headers: Headers;
}

export async function http(base: string, method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<HttpAnswer> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (e.g. /metrics)
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** One HTTP request to the server; the tests pass one that goes through `app.inject` instead. */
export type Requester = (method: string, path: string, body?: unknown) => Promise<HttpAnswer>;

/** Creates a game and takes every person seat; returns the id and one token per person seat.
 * `base`: the server's URL, or a requester. `options`: the rest of the create body (rules, clock, hints…). */
export async function createGame(
  base: string | Requester,
  seats: SeatRequest[],
  name = (seat: number) => `person ${seat}`,
  options: Omit<CreateGameBody, 'seats'> = {},
): Promise<{ id: string; tokens: Map<number, string> }> {
  const request: Requester = typeof base === 'string' ? (method, path, body) => http(base, method, path, body) : base;
  const created = await request('POST', '/api/games', { ...options, seats });
  if (created.status !== 201) throw new HttpError('create', created);
  const tokens = new Map<number, string>();
  for (const [i, s] of seats.entries()) {
    if (s.kind !== 'person') continue;
    const joined = await request('POST', `/api/games/${created.body.id}/seats`, { name: name(i), seat: i });
    if (joined.status !== 201) throw new HttpError('join', joined);
    tokens.set(i, joined.body.token);
  }
  return { id: created.body.id, tokens };
}

export class HttpError extends Error {
  readonly status: number;
  constructor(what: string, answer: HttpAnswer) {
    super(`${what} failed: ${answer.status} ${answer.text.slice(0, 300)}`);
    this.status = answer.status;
  }
}

/** A random placement from `legal`, with one of its follower spots `followerChance` of the time. */
export function randomMove(legal: Placement[], random: () => number, followerChance: number): Move {
  const p = legal[Math.floor(random() * legal.length)];
  // Every figure's spots in one list (only followers' in a base game, so its draws are as before).
  const spots: { meeple: string; figure?: 'large' | 'abbot' }[] = [
    ...p.meeples.map((meeple) => ({ meeple })),
    ...(p.large ?? []).map((meeple) => ({ meeple, figure: 'large' as const })),
    ...(p.abbot ?? []).map((meeple) => ({ meeple, figure: 'abbot' as const })),
  ];
  const pick = spots.length > 0 && random() < followerChance ? spots[Math.floor(random() * spots.length)] : null;
  // The Abbot: half the time a placement allows it and places no figure, the abbot comes back.
  const returnAbbot = !pick && p.canReturnAbbot === true && random() < 0.5;
  return { x: p.x, y: p.y, rotation: p.rotation, meeple: pick?.meeple ?? null, ...(pick?.figure ? { figure: pick.figure } : {}), ...(returnAbbot ? { returnAbbot } : {}) };
}

/** What GameSocket needs of a WebSocket: Node's global one, or the `ws` client that fastify's
 * `injectWS` hands the tests. */
export interface FrameSocket {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket to `url`, once open. */
export async function openWebSocket(url: string, timeoutMs = 10_000): Promise<WebSocket> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    // Bounded, as every wait here is: a handshake that never ends must fail, not hang its caller.
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`WebSocket connect to ${url} did not open within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`WebSocket connect to ${url} failed`)), { once: true });
    socket.addEventListener('close', () => clearTimeout(timer), { once: true });
    socket.addEventListener('open', () => clearTimeout(timer), { once: true });
  });
  return socket;
}

/** One WebSocket connection to /ws, its server frames queued in arrival order. From protocol
 * version 2 each `delta` is queued as the `state` frame it leads to (a gap asks for a `sync`), so
 * callers read whole views whichever version the connection speaks. */
export class GameSocket {
  readonly socket: FrameSocket;
  readonly frames: any[] = [];
  /** Set to an array to keep every frame as the server sent it (deltas as deltas). */
  raw: any[] | null = null;
  private readonly tracker = new ViewTracker();
  closed: { code: number; reason: string } | null = null;
  /** The welcome frame, once `join` has had it. */
  welcome: any = null;
  private waiters: (() => void)[] = [];
  private pings = 0;
  /** The last frames received, in short, for a timeout's message (the queue may have been read). */
  private readonly recent: string[] = [];

  constructor(socket: FrameSocket) {
    this.socket = socket;
    socket.addEventListener('message', (e) => {
      const frame = JSON.parse(String(e.data));
      this.raw?.push(frame);
      this.recent.push(`${frame.type}${frame.seq === undefined ? '' : `#${frame.seq}`}${frame.view ? `(turn ${frame.view.turn}, ${frame.view.status}, seat ${frame.view.currentSeat})` : ''}`);
      if (this.recent.length > 8) this.recent.shift();
      if (frame.type === 'state') this.tracker.state(frame);
      if (frame.type === 'delta') {
        const view = this.tracker.delta(frame);
        if (view === 'sync') this.send({ type: 'sync' });
        if (view === null || view === 'sync') return;
        this.frames.push({ type: 'state', view, last: frame.last, seq: frame.seq });
      } else this.frames.push(frame);
      this.wake();
    });
    socket.addEventListener('close', (e) => {
      this.closed = { code: e.code, reason: e.reason };
      this.wake();
    });
  }

  static async connect(url: string): Promise<GameSocket> {
    return new GameSocket(await openWebSocket(url));
  }

  /** Connects and says hello (a token plays its seat; none watches); resolves after the welcome. */
  static async join(url: string, gameId: string, token?: string, version = PROTOCOL_VERSION): Promise<GameSocket> {
    const c = await GameSocket.connect(url);
    await c.hello(gameId, token, version);
    return c;
  }

  /** Says hello on an open socket; resolves after the welcome, throws at a refusal. */
  async hello(gameId: string, token?: string, version = PROTOCOL_VERSION): Promise<void> {
    this.send({ type: 'hello', v: version, gameId, ...(token ? { token } : {}) });
    this.welcome = await this.next((f) => f.type === 'welcome' || f.type === 'error');
    if (this.welcome.type === 'error') throw new Error(`hello refused: ${this.welcome.code}: ${this.welcome.message}`);
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Removes and returns the first queued frame matching `pred`, waiting up to `ms`. */
  async next(pred: (f: any) => boolean = () => true, ms = 5000): Promise<any> {
    return this.frames.splice(await this.queued(pred, ms), 1)[0];
  }

  /** The index of the first queued frame matching `pred`, waiting up to `ms`. */
  private async queued(pred: (f: any) => boolean, ms: number): Promise<number> {
    const until = Date.now() + ms;
    for (;;) {
      const i = this.frames.findIndex(pred);
      if (i >= 0) return i;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting; frames: ${JSON.stringify(this.frames).slice(0, 500)}`);
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${ms} ms; queued: ${JSON.stringify(this.frames.map((f) => f.type))}; last received: ${this.recent.join(', ') || 'none'}`);
      await this.activity(left);
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

  /** The latest state frame matching `pred`, waiting for one if none; every frame stays queued. */
  async peekState(pred: (f: any) => boolean = () => true, ms = 5000): Promise<any> {
    const matches = (f: any) => f.type === 'state' && pred(f);
    await this.queued(matches, ms);
    return this.frames.findLast(matches);
  }

  /** A ping answered by its pong (which is removed): every frame the server sent this socket
   * before it had the ping is queued by now, so a frame still missing was never sent. */
  async roundTrip(ms = 5000): Promise<void> {
    const id = `round-trip-${++this.pings}`;
    this.send({ type: 'ping', id });
    await this.next((f) => f.type === 'pong' && f.ref === id, ms);
  }

  async closedWith(ms = 5000): Promise<{ code: number; reason: string }> {
    const until = Date.now() + ms;
    while (!this.closed && Date.now() < until) await this.activity(until - Date.now());
    if (!this.closed) throw new Error(`socket did not close within ${ms} ms`);
    return this.closed;
  }

  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  /** Resolves at the next frame or close, or after `ms` (an unref'd timer: it keeps no process alive). */
  activity(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms).unref();
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
