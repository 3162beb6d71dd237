// When a game nobody plays ends: its open seats stayed open too long, its people stayed away too
// long, or nothing happened for too long. Plain data and checks with the time passed in: the
// room keeps an Activity and owns the timer and the store write of "person last seen"; the
// service's sweep asks `expiryReason`.

import type { Config } from '../config.ts';
import type { GameStatus } from '../wire/game.ts';

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

/** One game's expiry clock: when anything last happened, when a person was last here, and when
 * that was last stored. */
export class Activity {
  private lastActivityAt: number;
  private lastPersonAt: number;
  private personStoredAt = 0;

  /** A new game starts now; a restored one counts on from its stored times, so a restart
   * neither extends nor cuts a game's time. */
  constructor(now: number, stored: { lastActivityAt?: number; lastPersonAt?: number } = {}) {
    this.lastActivityAt = stored.lastActivityAt ?? now;
    this.lastPersonAt = stored.lastPersonAt ?? now;
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
