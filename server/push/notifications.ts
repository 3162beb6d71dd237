// Told when it is your turn: the hooks the turn-based games call (server/games/turn-events.ts)
// turned into Web Push messages. Each notification is claimed in the database before it is sent
// (push/store.ts), so it goes out once whatever restarts and however many instances hear of the
// turn; a player's turns that come within `foldMs` of each other go out as one message (the
// service worker also folds a message into the notification already shown); nothing is sent for
// a game the player is watching; a subscription the push service says is gone is dropped. A
// player challenged by name into a new game is told the same way, once, at once.
// At most once: a crash between a claim and its send loses that notification, never doubles it.
// A connection closed unanswered (a kept-alive socket timed out under the request) is tried once more.

import { Agent } from 'node:https';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { ChallengeEvent } from '../games/turn-events.ts';
import type { PushGame, PushMessage } from '../wire/push.ts';
import { CLAIM_KEEP_MS, type PushClaim, type PushDevice, type PushStore, type VapidKeys } from './store.ts';

/** What the games tell: this player's seat is to move in this game, at this turn (the record's
 * move count), before this deadline (ms since the epoch, a Date or an ISO string; null: none). */
export interface TurnEvent {
  playerId: string;
  gameId: string;
  turn: number;
  deadline: number | Date | string | null;
}

export interface TurnNotificationOptions {
  store: PushStore;
  keys: VapidKeys;
  /** RFC 8292's `sub`: an https origin or a mailto. */
  subject: string;
  /** The player has the game open here now: they see their turn without a notification. */
  isWatching: (playerId: string, gameId: string) => boolean;
  /** How many games wait for the player, told in the message; none when not given. */
  waitingCount?: (playerId: string) => Promise<number>;
  /** How long a player's turns are gathered into one message. */
  foldMs?: number;
  now?: () => number;
  log: Pick<Logger, 'warn' | 'debug'>;
  /** Told of each count as it grows (the metrics). */
  onCount?: (outcome: keyof PushCounts, n: number) => void;
  /** The TLS agent for the push services (a test's push service on loopback, its own CA): used for a
   * second try too, so it should not keep connections alive. */
  agent?: Agent;
}

export type SendOutcome = 'sent' | 'gone' | 'failed';

/** What the service did, counted (for tests and logs). */
export interface PushCounts {
  /** Pushes sent (one per device). */
  sent: number;
  /** Messages made (one per player and fold). */
  messages: number;
  gone: number;
  failed: number;
  /** Pushes sent again after their connection was closed unanswered (counted once more in `sent` or `failed`). */
  retried: number;
  skippedWatching: number;
  skippedClaimed: number;
}

const DEFAULT_FOLD_MS = 2_000;
/** Games named in one message: push services take about 4 KB of payload; `waiting` counts them all. */
export const GAMES_PER_MESSAGE = 20;
const DAY_SECONDS = 86_400;
const PRUNE_EVERY_MS = 3_600_000;

interface Pending {
  events: TurnEvent[];
  timer: NodeJS.Timeout;
  settled: (() => void)[];
}

export class TurnNotifications {
  readonly counts: PushCounts = { sent: 0, messages: 0, gone: 0, failed: 0, retried: 0, skippedWatching: 0, skippedClaimed: 0 };
  private readonly options: TurnNotificationOptions;
  private readonly foldMs: number;
  private readonly now: () => number;
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<Promise<void>>();
  private pruneTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: TurnNotificationOptions) {
    this.options = options;
    this.foldMs = options.foldMs ?? DEFAULT_FOLD_MS;
    this.now = options.now ?? Date.now;
  }

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /** It is the player's turn: one notification per game and turn, folded with the player's other
   * turns that come within the fold window. Settles once handled; never rejects. */
  yourTurn(event: TurnEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const held = this.pending.get(event.playerId);
      if (held) {
        held.events.push(event);
        held.settled.push(resolve);
        return;
      }
      const timer = setTimeout(() => this.flush(event.playerId), this.foldMs);
      this.pending.set(event.playerId, { events: [event], timer, settled: [resolve] });
    });
  }

  /** The player's deadline in this game is near: sent once per game and turn, at once. */
  reminder(event: TurnEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.track(this.deliver(event.playerId, [event], 'reminder'));
  }

  /** The player was challenged by name into a seat of a new game: told once, at once, who
   * challenged them; the push service keeps it while the seat waits. */
  challenged(event: ChallengeEvent): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.track(this.deliver(event.playerId, [{ playerId: event.playerId, gameId: event.gameId, turn: 0, deadline: event.until }], 'challenge', event.by));
  }

  /** Removes claims older than any turn can wait; at start and hourly. */
  startPruning(): void {
    const prune = () => this.options.store.pruneClaims(this.now() - CLAIM_KEEP_MS).catch((err) => this.options.log.warn({ err }, 'old push claims could not be removed: tried again in an hour'));
    void prune();
    this.pruneTimer = setInterval(prune, PRUNE_EVERY_MS).unref();
  }

  /** Sends what is gathered now and waits for every message in flight; later turns are not told
   * (the store closes next). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    for (const playerId of [...this.pending.keys()]) this.flush(playerId);
    await Promise.all(this.inFlight);
  }

  private flush(playerId: string): void {
    const held = this.pending.get(playerId);
    if (!held) return;
    this.pending.delete(playerId);
    clearTimeout(held.timer);
    void this.track(this.deliver(playerId, held.events, 'turn')).then(() => {
      for (const settle of held.settled) settle();
    });
  }

  private track(work: Promise<void>): Promise<void> {
    const done = work.catch((err) => this.options.log.warn({ err }, 'a turn notification could not be sent'));
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
    return done;
  }

  private async deliver(playerId: string, events: TurnEvent[], kind: PushClaim['kind'], by: string | null = null): Promise<void> {
    const told = new Map(events.map((e) => [`${e.gameId}\u0000${e.turn}`, e]));
    const unseen = [...told.values()].filter((e) => !this.options.isWatching(playerId, e.gameId));
    this.count('skippedWatching', told.size - unseen.length);
    if (unseen.length === 0) return;
    const { store } = this.options;
    const devices = await store.devices(playerId);
    if (devices.length === 0) return;
    const claimed = await store.claim(
      unseen.map((e) => ({ playerId, gameId: e.gameId, turn: e.turn, kind })),
      this.now(),
    );
    this.count('skippedClaimed', unseen.length - claimed.length);
    if (claimed.length === 0) return;
    const won = new Set(claimed.map((c) => `${c.gameId}\u0000${c.turn}`));
    const games = unseen
      .filter((e) => won.has(`${e.gameId}\u0000${e.turn}`))
      .map(pushGame)
      .slice(0, GAMES_PER_MESSAGE);
    const waiting = this.options.waitingCount ? await this.options.waitingCount(playerId).catch(() => null) : null;
    const message: PushMessage = { kind, games, waiting, ...(kind === 'challenge' ? { by } : {}) };
    this.count('messages', 1);
    await Promise.all(devices.map((d) => this.send(d, message)));
  }

  /** One message to one device; a subscription the push service says is gone is dropped. */
  async send(device: PushDevice, message: PushMessage): Promise<SendOutcome> {
    try {
      await this.post(device, message).catch((err: unknown) => {
        if (!closedUnanswered(err)) throw err;
        this.count('retried', 1);
        return this.post(device, message, this.options.agent ?? FRESH_CONNECTIONS);
      });
      this.count('sent', 1);
      return 'sent';
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        this.count('gone', 1);
        await this.options.store.dropEndpoint(device.endpoint);
        this.options.log.debug({ device: device.id, status }, 'a push subscription is gone: dropped');
        return 'gone';
      }
      this.count('failed', 1);
      this.options.log.warn({ device: device.id, status, err: (err as Error).message }, 'a push service refused a notification');
      return 'failed';
    }
  }

  private async post(device: PushDevice, message: PushMessage, agent = this.options.agent): Promise<void> {
    const { keys, subject } = this.options;
    await webpush.sendNotification({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(message), {
      vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: this.ttlSeconds(message),
      urgency: message.kind === 'reminder' ? 'high' : 'normal',
      timeout: 10_000,
      ...(agent ? { agent } : {}),
    });
  }

  private count(outcome: keyof PushCounts, n: number): void {
    if (n === 0) return;
    this.counts[outcome] += n;
    this.options.onCount?.(outcome, n);
  }

  /** Kept by the push service until the earliest deadline (a day without one): a turn already
   * played by the stand-in is not worth telling. */
  private ttlSeconds(message: PushMessage): number {
    const deadlines = message.games.flatMap((g) => (g.deadline === null ? [] : [g.deadline]));
    if (deadlines.length === 0) return DAY_SECONDS;
    return Math.max(60, Math.min(28 * DAY_SECONDS, Math.floor((Math.min(...deadlines) - this.now()) / 1000)));
  }
}

/** The connection was closed under the request before any answer: most often a kept-alive socket
 * that the push service (or the sender's own pool) timed out just as it was reused, when a burst
 * keeps both event loops busy past their idle timeouts (5 s each in Node). Worth one more try on
 * another connection; should the service have taken the first one after all, the worker folds the
 * repeat into the notification already shown (same tag, same game and turn). */
function closedUnanswered(err: unknown): boolean {
  const { code, statusCode } = err as { code?: string; statusCode?: number };
  return statusCode === undefined && (code === 'ECONNRESET' || code === 'EPIPE');
}

/** What the second try goes over: a new connection, never another kept-alive socket of the pool
 * (in a burst, the next free one may be as stale as the first). */
const FRESH_CONNECTIONS = new Agent({ keepAlive: false });

function pushGame(e: TurnEvent): PushGame {
  const deadline = e.deadline === null ? null : e.deadline instanceof Date ? e.deadline.getTime() : typeof e.deadline === 'string' ? Date.parse(e.deadline) : e.deadline;
  return { gameId: e.gameId, turn: e.turn, deadline: deadline !== null && Number.isFinite(deadline) ? deadline : null, url: `/#/g/${encodeURIComponent(e.gameId)}` };
}
