// When a game nobody plays ends: its open seats stayed open too long, its people stayed away too
// long, or nothing happened for too long. The checks are plain data with the time passed in; a
// room's Activity also stores "person last seen", throttled, through the room's store write
// (`SeenWriter`); the service's sweep asks `expiryReason`.

import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { GameStatus } from '../wire/game.ts';
import { StorageError } from '../storage/errors.ts';

export type ExpirySettings = Pick<Config, 'expireOpenSeatSeconds' | 'expireAwaySeconds' | 'expireIdleSeconds'>;

/** Why a game expired (a label of the abandoned-games metric). */
export type ExpiryReason = 'open_seat' | 'away' | 'idle';

/** A game's "person last seen" is stored at most this often (on connects, leaves, and while
 * someone stays connected, at each expiry sweep): a restart loses at most this much of it. */
export const PERSON_SEEN_WRITE_MS = 5000;

/** Milliseconds since anything happened (a seat taken, a move), and since a person was last
 * connected (0 while one is). */
export interface Idle {
  activity: number;
  people: number;
}

/** Why a game that has been idle this long expires now, or null while it may go on. */
export function expiryReason(status: GameStatus, idle: Idle, settings: ExpirySettings): ExpiryReason | null {
  if (status === 'finished') return null;
  if (status === 'waiting') return idle.activity >= settings.expireOpenSeatSeconds * 1000 ? 'open_seat' : null;
  if (idle.people >= settings.expireAwaySeconds * 1000) return 'away';
  return idle.activity >= settings.expireIdleSeconds * 1000 ? 'idle' : null;
}

/** How a room stores "person last seen". */
export interface SeenWriter {
  /** Stores the time; a StorageError is the store watcher's to log. */
  store(lastSeen: number): Promise<void>;
  peoplePresent(): boolean;
  /** A finished game stores no presence. */
  finished(): boolean;
  log: Logger;
}

/** One game's expiry clock: when anything last happened, when a person was last here, and when
 * that was last stored; with a writer, it stores the last one too. */
export class Activity {
  private lastActivityAt: number;
  private lastPersonAt: number;
  private personStoredAt = 0;
  private readonly writer: SeenWriter | undefined;
  /** The throttled write waiting (PERSON_SEEN_WRITE_MS). */
  private write: NodeJS.Timeout | null = null;
  /** Set on shutdown and close: no write is scheduled any more. */
  private stopped = false;
  /** Logged once per streak of failed abandons (the sweep tries again). */
  private abandonFailing = false;

  /** A new game starts now; a restored one counts on from its stored times, so a restart
   * neither extends nor cuts a game's time. */
  constructor(now: number, stored: { lastActivityAt?: number; lastPersonAt?: number } = {}, writer?: SeenWriter) {
    this.lastActivityAt = stored.lastActivityAt ?? now;
    this.lastPersonAt = stored.lastPersonAt ?? now;
    this.writer = writer;
  }

  /** A seat holder is here (or just left): remembered now, stored throttled. */
  personSeen(): void {
    const wait = this.seen(Date.now());
    if (!this.writer || this.write || this.stopped) return;
    if (wait <= 0) return void this.store();
    this.write = setTimeout(() => {
      this.write = null;
      void this.store();
    }, wait);
    this.write.unref();
  }

  /** Shutdown: nothing more is scheduled; people connected now were seen until now, stored now
   * (their time away counts from the shutdown). */
  flush(): Promise<void> {
    this.stop();
    return this.writer && (this.writer.peoplePresent() || this.unstored) ? this.store() : Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    if (this.write) clearTimeout(this.write);
    this.write = null;
  }

  /** Stores when a person was last seen (now, while one is connected). Never throws: a failed
   * write is logged by the store's watcher, and the next one carries the newer time. */
  private async store(): Promise<void> {
    const writer = this.writer;
    if (!writer || writer.finished()) return;
    const lastSeen = this.storing(Date.now(), writer.peoplePresent());
    try {
      await writer.store(lastSeen);
    } catch (err) {
      if (!(err instanceof StorageError)) writer.log.warn({ err: (err as Error).message }, 'when a person was last seen could not be stored');
    }
  }

  /** The game ends as it stands (`end`, false when the store could not write it): a throw is not
   * the disk's fault, logged once per streak; either way the sweep tries again. */
  async abandoning(why: string, end: () => Promise<boolean>): Promise<boolean> {
    try {
      const done = await end();
      this.abandonFailing = false;
      return done;
    } catch (err) {
      if (!this.abandonFailing) this.writer?.log.error({ err, why }, 'abandoning the game failed: tried again at the next sweep');
      this.abandonFailing = true;
      return false;
    }
  }

  /** When anything last happened (ms since the epoch): a turn-based deadline counts from it. */
  get lastActivity(): number {
    return this.lastActivityAt;
  }

  /** A move was stored. */
  moved(now: number): void {
    this.lastActivityAt = now;
  }

  /** A person took a seat: the store wrote the activity and their presence with the seat. */
  seated(now: number): void {
    this.lastActivityAt = this.lastPersonAt = this.personStoredAt = now;
  }

  /** A seat holder is here (or just left). Returns the milliseconds until storing it is due
   * (PERSON_SEEN_WRITE_MS after the last write); zero or less: due now. */
  seen(now: number): number {
    this.lastPersonAt = now;
    return this.personStoredAt + PERSON_SEEN_WRITE_MS - now;
  }

  /** The "person last seen" to store now (now itself while one is connected), counted as stored. */
  storing(now: number, peoplePresent: boolean): number {
    if (peoplePresent) this.lastPersonAt = now;
    this.personStoredAt = now;
    return this.lastPersonAt;
  }

  /** A person was seen since the last write. */
  get unstored(): boolean {
    return this.lastPersonAt > this.personStoredAt;
  }

  idleFor(now: number, peoplePresent: boolean): Idle {
    return { activity: now - this.lastActivityAt, people: peoplePresent ? 0 : now - this.lastPersonAt };
  }
}
