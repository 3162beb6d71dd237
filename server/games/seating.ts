// A person taking a seat: where they may sit (seats.ts), the holder stored, then kept, and the
// seat token issued (shown once, stored only as a hash). The room runs it in its write queue.

import { issueToken, type JoinRefusal, type Seats } from './seats.ts';
import { takeSeat } from './store-operations.ts';
import { GameElsewhereError, type GameSetup, type GameStore, OwnershipLostError } from './store.ts';

/** The seats of one game and where they are stored. */
export interface Seating {
  setup: GameSetup;
  seats: Seats;
  store: GameStore;
  /** The store refused the write: another instance owns the game now. */
  lost(): void;
}

/** A person in a seat: its token, and `again` when it is their own rematch seat asked for twice
 * (its token issued again, nothing else changed). */
export interface Seated {
  seat: number;
  token: string;
  again: boolean;
}

/** Seats `name` (a signed-in player when `playerId` is given): the seat asked for or the first
 * open one. A rated game's seats are for players; a rematch's are kept for the previous game's
 * players (`forRematch`). */
export async function seatPerson(at: Seating, name: string, seat: number | undefined, forRematch: boolean, playerId: string | undefined): Promise<Seated | JoinRefusal> {
  const { setup, seats } = at;
  if (setup.rated && !playerId) return { error: 'sign_in_required', message: 'this game is rated: its seats are for players (start a session with POST /api/session first)' };
  const kept = keptSeat(setup, seats.openSeats, seat, playerId);
  if (typeof kept === 'object') return kept;
  const place = seats.placeFor(name, kept, setup.rematchOf, forRematch);
  if ('error' in place) return place;
  const { token, holder } = issueToken(name, playerId);
  try {
    await takeSeat(at.store, setup.id, place.seat, holder);
  } catch (e) {
    if (!(e instanceof OwnershipLostError)) throw e;
    at.lost();
    throw new GameElsewhereError(`game ${setup.id} moved to another instance: retry`);
  }
  seats.set(place.seat, holder);
  return { seat: place.seat, token, again: place.again };
}

/** The seat to ask for given the seats kept for challenged players: a challenged player's own
 * open seat first, else the first open seat kept for nobody; a seat kept for someone else is
 * refused. */
function keptSeat(setup: GameSetup, open: number[], seat: number | undefined, playerId: string | undefined): number | undefined | JoinRefusal {
  const keptFor = (i: number) => setup.seats[i]?.player;
  if (seat !== undefined) {
    const player = keptFor(seat);
    if (player && player.id !== playerId) return { error: 'no_seat', message: `seat ${seat} is kept for ${player.name}, who was challenged to this game` };
    return seat;
  }
  const own = open.find((i) => playerId !== undefined && keptFor(i)?.id === playerId);
  if (own !== undefined) return own;
  const free = open.find((i) => !keptFor(i));
  if (free !== undefined) return free;
  return open.length > 0 ? { error: 'no_seat', message: 'the open seats are kept for the players challenged to this game' } : undefined;
}
