// Any instance serves any game (Redis pub/sub, as Colyseus operators would expect): a WebSocket
// that reaches an instance not owning its game is relayed to the owner. The edge instance (where
// the socket is) forwards the client's frames on the owner's channel; the owner runs them through
// an ordinary connection serving a RelayedPeer, whose sends go back on the edge's channel. HTTP
// seat taking for a game owned elsewhere is a request/reply on the same channels. The edge checks
// PostgreSQL every second: a relayed game whose owner changed or died, or was taken again at a
// new fencing epoch (its owner restarted under the same id, forgetting the relayed sockets), gets
// its sockets closed with 1012, and the clients reconnect (to its new owner, or relayed again). The owner checks
// that the edges of its relayed sockets are still subscribed: a dead edge's sockets are gone.
// Each instance publishes a beat on its own channel every second: when its beats stop coming
// back (Redis down, frozen or out of reach), its relayed sockets are closed with 4000 (the
// clients reconnect, maybe to the owner) and no new socket is relayed until they come back; a
// relayed hello the owner leaves unanswered that long is closed with 4000 too. A check that runs
// late (this process stalled, so the beats wait unread behind it) judges nothing. A frame for a
// relayed socket the owner no longer serves is answered by closing that socket with 4000.

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { goodbye, type Peer, type PeerHandler, type RemoteLink } from '../directory/peer.ts';
import type { LeaseStore } from './lease-store.ts';
import type { GameService } from '../games/service.ts';
import { DamagedGameError, GameElsewhereError } from '../games/store.ts';
import type { Metrics } from '../metrics.ts';
import { CLOSE } from '../wire/close.ts';

type JoinResult =
  | { seat: number; token: string; instance?: string }
  | { error: 'no_seat' | 'name_taken' | 'sign_in_required' | 'unknown_game' | 'game_elsewhere' | 'game_damaged' | 'internal'; message: string };

type Message =
  | { t: 'open'; conn: string; edge: string; data: string; playerId?: string }
  | { t: 'in'; conn: string; data: string }
  | { t: 'close'; conn: string }
  | { t: 'out'; conn: string; data: string }
  | { t: 'closed'; conn: string; code: number; reason: string }
  | { t: 'join'; id: string; edge: string; gameId: string; name: string; seat?: number; forRematch?: boolean; playerId?: string }
  | { t: 'joined'; id: string; result: JoinResult }
  | { t: 'beat' };

const channel = (instance: string) => `tessera:instance:${instance}`;
/** A relay id is `<edge instance>:<random hex>`. */
const edgeOf = (conn: string) => conn.slice(0, conn.lastIndexOf(':'));

/** Beats go round (publish, then receive) this often; this long without one, the relay is broken. */
const BEAT_MS = 1000;
export const RELAY_BROKEN_AFTER_MS = 3000;

/** The owner's end of a relayed client: its sends go back to the edge holding the socket (whose
 * buffer the edge watches: here nothing is queued). */
class RelayedPeer implements Peer {
  isOpen = true;
  readonly bufferedAmount = 0;
  /** The connection serving it here; set as soon as it is served. */
  handler: PeerHandler | null = null;
  private readonly out: (m: Message) => void;
  readonly conn: string;
  /** The instance holding the real socket. */
  readonly edge: string;

  constructor(conn: string, edge: string, out: (m: Message) => void) {
    this.conn = conn;
    this.edge = edge;
    this.out = out;
  }
  send(data: string): void {
    if (this.isOpen) this.out({ t: 'out', conn: this.conn, data });
  }
  close(code: number, reason: string): void {
    if (!this.isOpen) return;
    this.out({ t: 'closed', conn: this.conn, code, reason });
    this.gone();
  }
  terminate(): void {
    this.close(1006, '');
  }
  /** Closed here, or the edge's socket closed. */
  gone(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.handler?.closed();
  }
}

interface EdgeLink {
  peer: Peer;
  owner: string;
  /** The owner's fencing epoch when the socket was relayed: the instance serving it. */
  epoch: number;
  gameId: string;
  /** When the hello went to the owner; null once the owner answered anything. */
  unansweredSince: number | null;
}

export interface RelayOptions {
  url: string;
  metrics: Metrics;
  store: LeaseStore;
  games: GameService;
  log: Logger;
  /** Serves a relayed client on this (owner) instance as an ordinary connection. */
  /** Serves a relayed peer here, as the signed-in player its upgrade carried (or none). */
  serve(peer: Peer, log: Logger, playerId: string | null): PeerHandler;
  /** A relayed socket whose client does not read its frames is dropped past this many bytes. */
  maxBufferedBytes: number;
}

export class Relay {
  private readonly options: RelayOptions;
  private readonly instance: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  /** Sockets here whose game another instance owns, by relay id. */
  private readonly edges = new Map<string, EdgeLink>();
  /** Relayed clients of games owned here, by relay id. */
  private readonly owned = new Map<string, RelayedPeer>();
  private readonly calls = new Map<string, (r: JoinResult) => void>();
  private watchdog: NodeJS.Timeout | null = null;
  private lastBeat = Date.now();
  private lastCheck = Date.now();
  private broken = false;

  constructor(options: RelayOptions) {
    this.options = options;
    this.instance = options.store.instance as string;
    const redis = { lazyConnect: true, maxRetriesPerRequest: 2 };
    this.pub = new Redis(options.url, redis);
    this.sub = new Redis(options.url, redis);
    for (const r of [this.pub, this.sub]) r.on('error', (err) => options.log.warn({ err: err.message }, 'redis connection problem'));
  }

  async start(): Promise<void> {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    await this.sub.subscribe(channel(this.instance));
    this.sub.on('message', (_channel, raw: string) => {
      try {
        this.receive(JSON.parse(raw) as Message);
      } catch (err) {
        this.options.log.error({ err }, 'relay message failed');
      }
    });
    this.lastBeat = Date.now();
    this.watchdog = setInterval(() => void this.check(), BEAT_MS);
    this.watchdog.unref();
  }

  async stop(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    for (const p of [...this.owned.values()]) p.close(CLOSE.moved, 'game moved: reconnect');
    await Promise.all([this.pub.quit().catch(() => {}), this.sub.quit().catch(() => {})]);
  }

  /** The live owner of an unfinished game (and its epoch) when it is another instance, else null. */
  async ownerElsewhere(gameId: string): Promise<{ owner: string; epoch: number } | null> {
    const now = await this.options.store.ownerOf(gameId);
    return now && !now.finished && now.live && now.owner && now.owner !== this.instance ? { owner: now.owner, epoch: now.epoch } : null;
  }

  /** Relays `peer` (whose hello is `hello`, signed in as `playerId`) to the game's owner; null when no live owner. */
  async link(peer: Peer, gameId: string, hello: string, playerId: string | null = null): Promise<RemoteLink | null> {
    if (this.broken) return null;
    const held = await this.ownerElsewhere(gameId);
    if (!held) return null;
    const { owner, epoch } = held;
    const conn = `${this.instance}:${randomBytes(8).toString('hex')}`;
    this.edges.set(conn, { peer, owner, epoch, gameId, unansweredSince: Date.now() });
    this.options.metrics.relayed.set(this.edges.size);
    this.send(owner, { t: 'open', conn, edge: this.instance, data: hello, ...(playerId ? { playerId } : {}) });
    return {
      forward: (data) => this.send(owner, { t: 'in', conn, data }),
      closed: () => {
        if (this.edges.delete(conn)) this.send(owner, { t: 'close', conn });
        this.options.metrics.relayed.set(this.edges.size);
      },
    };
  }

  /** Takes a seat in a game owned by another instance. */
  async join(gameId: string, name: string, seat?: number, forRematch = false, playerId?: string): Promise<JoinResult> {
    if (this.broken) return { error: 'game_elsewhere', message: `game ${gameId} is played on another instance, out of reach now: retry in a few seconds` };
    const owner = (await this.ownerElsewhere(gameId))?.owner;
    if (!owner) return { error: 'game_elsewhere', message: `game ${gameId} is being taken over: retry in a few seconds` };
    const id = randomBytes(8).toString('hex');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.calls.delete(id);
        resolve({ error: 'game_elsewhere', message: `the instance owning game ${gameId} did not answer: retry in a few seconds` });
      }, 5000);
      this.calls.set(id, (result) => {
        clearTimeout(timer);
        resolve('error' in result ? result : { ...result, instance: owner });
      });
      this.send(owner, { t: 'join', id, edge: this.instance, gameId, name, ...(seat === undefined ? {} : { seat }), ...(forRematch ? { forRematch } : {}), ...(playerId ? { playerId } : {}) });
    });
  }

  private send(instance: string, m: Message): void {
    this.pub.publish(channel(instance), JSON.stringify(m)).catch((err: Error) => this.options.log.warn({ err: err.message }, 'relay publish failed'));
  }

  private receive(m: Message): void {
    switch (m.t) {
      case 'beat':
        this.lastBeat = Date.now();
        return;
      case 'open': {
        const peer = new RelayedPeer(m.conn, m.edge, (out) => this.send(m.edge, out));
        const served = this.options.serve(peer, this.options.log.child({ relayedFrom: m.edge }), m.playerId ?? null);
        peer.handler = {
          receive: (data, isBinary) => served.receive(data, isBinary),
          closed: () => {
            this.owned.delete(m.conn);
            served.closed();
          },
        };
        this.owned.set(m.conn, peer);
        served.receive(Buffer.from(m.data), false);
        return;
      }
      case 'in': {
        const peer = this.owned.get(m.conn);
        if (peer) peer.handler?.receive(Buffer.from(m.data), false);
        // Dropped here (the relay judged broken) while the edge kept the socket: it must not talk into silence.
        else this.send(edgeOf(m.conn), { t: 'closed', conn: m.conn, code: CLOSE.relayLost, reason: 'relay lost: reconnect' });
        return;
      }
      case 'close':
        this.owned.get(m.conn)?.gone();
        return;
      case 'out': {
        const link = this.edges.get(m.conn);
        const peer = link?.peer;
        if (!link || !peer?.isOpen) return;
        link.unansweredSince = null;
        // The owner cannot see this socket's buffer: the slow-consumer limit is applied here.
        if (peer.bufferedAmount > this.options.maxBufferedBytes) {
          this.options.log.warn({ bufferedAmount: peer.bufferedAmount }, 'slow consumer dropped');
          peer.terminate();
          return;
        }
        peer.send(m.data);
        return;
      }
      case 'closed': {
        const link = this.edges.get(m.conn);
        this.edges.delete(m.conn);
        // 1006 (no close frame) cannot be sent: the owner dropped the connection.
        if (m.code === 1006) link?.peer.terminate();
        else link?.peer.close(m.code, m.reason);
        return;
      }
      case 'join':
        void this.serveJoin(m);
        return;
      case 'joined':
        this.calls.get(m.id)?.(m.result);
        this.calls.delete(m.id);
        return;
    }
  }

  private async serveJoin(m: Extract<Message, { t: 'join' }>): Promise<void> {
    let result: JoinResult;
    try {
      const room = await this.options.games.room(m.gameId);
      result = room ? await room.join(m.name, m.seat, m.forRematch === true, m.playerId) : { error: 'unknown_game', message: `no game ${JSON.stringify(m.gameId)}` };
    } catch (e) {
      if (e instanceof DamagedGameError) result = { error: 'game_damaged', message: e.message };
      else if (e instanceof GameElsewhereError) result = { error: 'game_elsewhere', message: e.message };
      else {
        // Answered, not thrown: this runs from a Redis message, where a throw would end the process.
        this.options.log.error({ err: e, gameId: m.gameId }, 'relayed seat request failed');
        result = { error: 'internal', message: 'the instance playing this game could not take the seat' };
      }
    }
    this.send(m.edge, { t: 'joined', id: m.id, result });
  }

  private async check(): Promise<void> {
    // A beat stuck in a frozen connection or failing while Redis is down says nothing new.
    this.pub.publish(channel(this.instance), JSON.stringify({ t: 'beat' } satisfies Message)).catch(() => {});
    // Timers run before I/O: after a stall of this process the beats that came meanwhile are
    // still unread, and the silence is ours, not Redis's.
    const now = Date.now();
    if (now - this.lastCheck > 2 * BEAT_MS) this.lastBeat = now;
    this.lastCheck = now;
    if (!this.checkBeats()) return;
    this.checkAnswered();
    await Promise.all([this.checkOwners(), this.checkEdges()]);
  }

  /** A relayed hello the owner does not answer (it is frozen, or lost its Redis link while its
   * lease runs) is not left hanging: the client is sent to reconnect. */
  private checkAnswered(): void {
    const before = Date.now() - RELAY_BROKEN_AFTER_MS;
    for (const [conn, link] of this.edges) {
      if (link.unansweredSince === null || link.unansweredSince > before) continue;
      this.edges.delete(conn);
      this.send(link.owner, { t: 'close', conn });
      link.peer.close(CLOSE.relayLost, "no answer from the game's instance: reconnect");
    }
    this.options.metrics.relayed.set(this.edges.size);
  }

  /** False while the relay is broken: its sockets are closed, and none is relayed meanwhile. */
  private checkBeats(): boolean {
    const silent = Date.now() - this.lastBeat;
    if (silent < RELAY_BROKEN_AFTER_MS) {
      if (this.broken) this.options.log.info('the relay (Redis) works again: connections are relayed again');
      this.broken = false;
      return true;
    }
    if (!this.broken) {
      this.options.log.warn({ silentMs: silent, edges: this.edges.size, owned: this.owned.size }, 'the relay (Redis) is broken: relayed connections closed, none relayed until it is back');
      this.options.metrics.relayOutages.inc();
    }
    this.broken = true;
    for (const [conn, link] of this.edges) {
      this.edges.delete(conn);
      link.peer.close(CLOSE.relayLost, 'relay lost: reconnect');
    }
    this.options.metrics.relayed.set(this.edges.size);
    // Their edges cannot reach their players either: they are gone (seen as disconnected), and
    // their edges are told so if the message gets through.
    for (const p of [...this.owned.values()]) p.close(CLOSE.relayLost, 'relay lost: reconnect');
    return false;
  }

  /** Sockets relayed here from an instance that died (its Redis subscription is gone) are closed. */
  private async checkEdges(): Promise<void> {
    if (this.owned.size === 0) return;
    const edges = [...new Set([...this.owned.values()].map((p) => p.edge))];
    try {
      const counts = (await this.pub.pubsub('NUMSUB', ...edges.map(channel))) as (string | number)[];
      const dead = new Set(edges.filter((_, i) => Number(counts[2 * i + 1]) === 0));
      for (const p of [...this.owned.values()]) if (dead.has(p.edge)) p.gone();
    } catch (err) {
      this.options.log.warn({ err: (err as Error).message }, 'relay edge check failed');
    }
  }

  /** Relayed sockets whose game changed owner (or whose owner died, or took it again at a new
   * epoch: restarted under its id, it knows none of them) are sent to reconnect. */
  private async checkOwners(): Promise<void> {
    if (this.edges.size === 0) return;
    const games = [...new Set([...this.edges.values()].map((l) => l.gameId))];
    try {
      const owners = await this.options.store.owners(games);
      for (const [conn, link] of this.edges) {
        const now = owners.get(link.gameId);
        if (now && (now.finished || (now.live && now.owner === link.owner && now.epoch === link.epoch))) continue;
        this.edges.delete(conn);
        goodbye(link.peer, 'moved');
      }
    } catch (err) {
      this.options.log.warn({ err: (err as Error).message }, 'relay owner check failed');
    }
  }
}
