// Turn-based deadlines as plain data: which due turn to play for its absent person, which to
// remind, and when. The deadline itself is stored (the last activity plus the time per move,
// moved by each move's own write); the sweep (deadline-sweep.ts, run by the service) asks the
// store for the turns due and loads a game only to play its missed move.

import type { RecordMove } from '../../bot-engine/record.ts';
import { type DueTurn, type ListedGame, moveMsOf } from './store.ts';

/** A reminder goes out once per turn when this share of the move's time is left. */
export const REMINDER_SHARE = 0.25;

/** The longest reminder lead (a quarter of 7 days): the sweep asks for deadlines this far ahead. */
export const MAX_REMINDER_LEAD_MS = 7 * 86_400_000 * REMINDER_SHARE;

/** Due turns handled per sweep (the rest at the next one, soonest first). */
export const DUE_TURNS_PER_SWEEP = 200;

/** What the sweep does about a due turn now: play the missed move, remind the player, or nothing. */
export function dueAction(due: DueTurn, now: number): 'miss' | 'remind' | null {
  if (due.deadline <= now) return 'miss';
  if (due.deadline - due.moveMs * REMINDER_SHARE > now) return null;
  return due.marks?.remindedTurn === due.turn ? null : 'remind';
}

/** The seat to move, read from the record alone (no replay): each placement passes the turn to
 * the next seat, a discard does not (rules.ts `place`); null once the game is over. */
export function seatToMove(moves: readonly RecordMove[], seats: number, finished: boolean): number | null {
  if (finished) return null;
  let placements = 0;
  for (const m of moves) if (!('discard' in m)) placements++;
  return placements % seats;
}

/** Whose turn a listed unfinished game is at, and when its time runs out (turn-based games with
 * deadlines), from the listing alone: "your games" replays nothing. */
export function turnOf(game: ListedGame & { moves: RecordMove[] }): { currentSeat: number | null; deadline: number | null } {
  const seated = !game.holders.includes(null);
  const currentSeat = seated ? seatToMove(game.moves, game.setup.seats.length, game.finished) : null;
  const moveMs = moveMsOf(game.setup);
  const person = currentSeat !== null && game.setup.seats[currentSeat].kind === 'person' && (game.marks?.droppedAt[currentSeat] ?? null) === null;
  const deadline = person && moveMs !== null && game.lastActivityAt !== undefined ? game.lastActivityAt + moveMs : null;
  return { currentSeat, deadline };
}
