// A rated game's end carries its result, for the store to move ratings with it. Leavers place
// last, the first to leave lowest: people a stand-in plays for because they were away past the
// grace period (they left when their last connection closed), people dropped from a turn-based
// game after too many missed turns (when they were dropped) and, when the game expires, the
// person whose turn it was (when they left, or now if still connected). A game never fully
// seated moves no rating.

import { type Leaver, ranksOf } from '../ratings/model.ts';
import type { SeatClock } from './seat-clock.ts';
import type { GameEnd, GameSetup } from './store.ts';

/** Where the table stands as it ends. */
export interface Ending {
  /** Who holds each seat as a rated player, or null (seats.ts `players`). */
  players: string[] | null;
  /** The seat whose turn it is. */
  onTurn: number;
  /** The game expired (abandoned), rather than played out. */
  expired: boolean;
  now: number;
}

/** `end` with its rated result, or as it is in a game that moves no rating. */
export function withRatedResult(setup: GameSetup, end: GameEnd, clock: Pick<SeatClock, 'reason' | 'leftAt'>, ending: Ending): GameEnd {
  const players = setup.rated ? ending.players : null;
  if (!players || !end.scores) return end;
  const person = (seat: number) => setup.seats[seat].kind === 'person';
  const leaver = (seat: number): Leaver => ({ seat, at: clock.leftAt(seat) ?? ending.now });
  const leavers = players.flatMap((_, seat) => (person(seat) && (clock.reason(seat) === 'away' || clock.reason(seat) === 'dropped') ? [leaver(seat)] : []));
  const { onTurn } = ending;
  if (ending.expired && person(onTurn) && !leavers.some((l) => l.seat === onTurn)) leavers.push(leaver(onTurn));
  // A turn-based game rates its own pool, apart from the live one.
  return { ...end, rated: { players, ranks: ranksOf(end.scores, leavers), ...(setup.pace ? { pool: 'turnBased' as const } : {}) } };
}
