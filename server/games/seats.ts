// Who holds each seat of one game, and the seat tokens: a token is shown once to the person who
// takes the seat and kept only as its SHA-256. Plain data and checks: storing a holder is the
// room's job, so this module knows nothing of rooms or stores.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { CodedError } from '../errors.ts';
import { nameKey } from '../players/names.ts';
import { botPlayerId } from '../ratings/model.ts';
import type { GameSetup, SeatHolder, SeatSetup } from './store.ts';

export type JoinRefusal = { error: 'no_seat' | 'name_taken' | 'sign_in_required'; message: string };

export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A new seat token and the holder to store for it (the signed-in player's, when one took it). */
export function issueToken(name: string, playerId?: string): { token: string; holder: SeatHolder } {
  const token = randomBytes(24).toString('base64url');
  return { token, holder: { name, tokenHash: hashToken(token).toString('hex'), ...(playerId ? { playerId } : {}) } };
}

/** A new game's holders: bot seats are filled at once (in a rated game by their level's rated
 * identity), person seats are open. */
export function initialHolders(setup: Pick<GameSetup, 'seats' | 'rated'>): (SeatHolder | null)[] {
  return setup.seats.map((s, i) => (s.kind === 'bot' ? { name: `${s.level} bot ${i + 1}`, tokenHash: null, ...(setup.rated && s.level ? { playerId: botPlayerId(s.level) } : {}) } : null));
}

/** Names for a game's record: open seats get placeholders, never a name a person chose. */
export function recordNames(holders: readonly (SeatHolder | null)[]): string[] {
  const taken = new Set(holders.map((h) => h?.name));
  return holders.map((h, i) => {
    if (h) return h.name;
    let name = `open seat ${i + 1}`;
    while (taken.has(name)) name += '*';
    taken.add(name);
    return name;
  });
}

/** A game's holders with `playerId`'s seats renamed and unlinked; null when none is theirs. */
export function withoutPlayer(holders: (SeatHolder | null)[], playerId: string, replacement: string): (SeatHolder | null)[] | null {
  if (!holders.some((h) => h?.playerId === playerId)) return null;
  return holders.map((h) => (h?.playerId === playerId ? { name: replacement, tokenHash: h.tokenHash } : h));
}

/** A game's seats with none kept any more for `playerId` (a deleted player): such a seat is an
 * ordinary open one, their name and id gone; null when none was kept for them. A record never
 * reads who a seat was kept for (records.ts), so finished games lose it too. */
export function withoutKept(seats: readonly SeatSetup[], playerId: string): SeatSetup[] | null {
  if (!Array.isArray(seats) || !seats.some((s) => s?.player?.id === playerId)) return null;
  return seats.map((s) => {
    if (s?.player?.id !== playerId) return s;
    const { player: _gone, ...open } = s;
    return open;
  });
}

/** The ids of the players `setup` keeps seats for (a challenge). */
export function keptPlayerIds(setup: GameSetup): string[] {
  return setup.seats.flatMap((s) => (s.player ? [s.player.id] : []));
}

/** A store refuses a new game keeping a seat for a player deleted while it was being made: the
 * deletion released every kept seat it found, and this one was not yet stored. */
export function refuseDeletedKept(setup: GameSetup, deleted: ReadonlySet<string>): void {
  const gone = setup.seats.find((s) => s.player && deleted.has(s.player.id));
  if (gone?.player) throw new CodedError('unknown_player', `${gone.player.name} deleted their account: a challenge names a player of this server`);
}

/** `setup` with no seat kept for `playerId` (see withoutKept); null when none was. */
export function setupWithoutKept(setup: GameSetup, playerId: string): GameSetup | null {
  const seats = withoutKept(setup.seats, playerId);
  return seats && { ...setup, seats };
}

export class Seats {
  private readonly holders: (SeatHolder | null)[];

  constructor(holders: readonly (SeatHolder | null)[]) {
    this.holders = holders.slice();
  }

  get count(): number {
    return this.holders.length;
  }

  /** Every seat is held: the game can start. */
  get full(): boolean {
    return this.holders.every((h) => h !== null);
  }

  get openSeats(): number[] {
    return this.holders.flatMap((h, i) => (h === null ? [i] : []));
  }

  name(seat: number): string | null {
    return this.holders[seat]?.name ?? null;
  }

  /** The seat a token holds, or null. */
  seatOf(token: string): number | null {
    const hash = hashToken(token);
    for (let i = 0; i < this.holders.length; i++) {
      const h = this.holders[i]?.tokenHash;
      if (h && timingSafeEqual(Buffer.from(h, 'hex'), hash)) return i;
    }
    return null;
  }

  playerId(seat: number): string | undefined {
    return this.holders[seat]?.playerId;
  }

  /** Who holds each seat as a rated player, or null when a seat is open or held without one. */
  get players(): string[] | null {
    const ids = this.holders.map((h) => h?.playerId);
    return ids.every((id) => id !== undefined) ? (ids as string[]) : null;
  }

  /** The first seat the signed-in player holds, or null. */
  seatOfPlayer(playerId: string): number | null {
    const seat = this.holders.findIndex((h) => h?.playerId === playerId);
    return seat === -1 ? null : seat;
  }

  /** Where `name` may sit: the seat asked for (or the first open one), `again` when it is their
   * own rematch seat asked for twice (its token is issued again), or why not. A rematch's seats
   * are kept for the previous game's players (`forRematch`). */
  placeFor(name: string, seat: number | undefined, rematchOf: string | undefined, forRematch: boolean): { seat: number; again: boolean } | JoinRefusal {
    if (rematchOf && !forRematch) return { error: 'no_seat', message: "the seats of a rematch are kept for the previous game's players" };
    // Asking twice for one's rematch seat (another tab, a refresh) re-issues its token.
    if (forRematch && seat !== undefined && this.holders[seat]?.name === name) return { seat, again: true };
    const open = this.openSeats;
    const chosen = seat ?? open[0];
    if (chosen === undefined || !open.includes(chosen)) return { error: 'no_seat', message: seat === undefined ? 'no open seat is left' : `seat ${seat} is not open` };
    // Names that look the same (nameKey) would let one seat pass for another.
    const key = nameKey(name);
    if (this.holders.some((h) => h && nameKey(h.name) === key)) return { error: 'name_taken', message: `the name ${JSON.stringify(name)} (or one that looks the same) is taken in this game` };
    return { seat: chosen, again: false };
  }

  /** A deleted player's seats, renamed and no longer theirs (as the store has them now); false
   * when the player held none here. */
  forget(playerId: string, replacement: string): boolean {
    const holders = withoutPlayer(this.holders, playerId, replacement);
    if (!holders) return false;
    this.holders.splice(0, holders.length, ...holders);
    return true;
  }

  /** Records a holder the store has taken. */
  set(seat: number, holder: SeatHolder): void {
    this.holders[seat] = holder;
  }

  recordNames(): string[] {
    return recordNames(this.holders);
  }
}
