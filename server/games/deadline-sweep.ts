// Turn-based deadlines, swept: a passed one has its move played by the seat's stand-in (the game
// loaded for it, and let go at a later sweep once it rests); a near one reminds the player once
// per turn (marked in the store before the notifier is told: never twice, across restarts). In
// a cluster every instance sweeps: the one whose claim of the lease wins plays the move (one
// holding the game plays it), the others skip it; the reminder's mark is made once.

import type { Logger } from 'pino';
import type { Metrics } from '../metrics.ts';
import { StorageError } from '../storage/errors.ts';
import { DUE_TURNS_PER_SWEEP, dueAction, MAX_REMINDER_LEAD_MS } from './deadlines.ts';
import type { ReadableGame } from './records.ts';
import type { Room } from './room.ts';
import { DamagedGameError, type DueTurn, GameElsewhereError, type GameStore, noMarks } from './store.ts';
import type { TurnNotifier } from './turn-events.ts';

/** What the sweep needs of the games service. */
export interface SweptGames {
  store: GameStore;
  metrics: Metrics;
  log: Logger;
  turnEvents: TurnNotifier;
  /** The game's room, loaded here (claiming its lease) if need be. */
  room(id: string): Promise<Room | undefined>;
  /** The game as held here, or read from the store without loading it. */
  readable(id: string): Promise<ReadableGame | undefined>;
  /** Set aside as damaged here: skipped. */
  isDamaged(id: string): boolean;
}

export async function sweepDeadlines(games: SweptGames, now: number): Promise<void> {
  for (const due of await games.store.dueTurns(now + MAX_REMINDER_LEAD_MS, DUE_TURNS_PER_SWEEP)) {
    const action = dueAction(due, now);
    if (!action || games.isDamaged(due.id)) continue;
    try {
      if (action === 'miss') await missTurn(games, due, now);
      else await remind(games, due);
    } catch (err) {
      if (err instanceof DamagedGameError || err instanceof StorageError || err instanceof GameElsewhereError) continue;
      games.log.error({ err, gameId: due.id }, 'a turn-based deadline could not be handled: tried again at the next sweep');
    }
  }
}

async function missTurn(games: SweptGames, due: DueTurn, now: number): Promise<void> {
  const room = await games.room(due.id);
  if (!room) return;
  const missed = await room.pace.missTurn(due.turn, now);
  if (missed !== 'none') games.metrics.missedTurns.inc({ outcome: missed });
}

async function remind(games: SweptGames, due: DueTurn): Promise<void> {
  const game = await games.readable(due.id);
  if (!game) return;
  const view = game.view(null);
  const seat = view.currentSeat;
  const playerId = seat === null ? undefined : view.seats[seat]?.playerId;
  if (view.status !== 'playing' || view.turn !== due.turn || seat === null || !playerId || view.seats[seat].kind !== 'person' || view.seats[seat].standIn !== null) return;
  let first = false;
  await games.store.update(due.id, {
    name: 'turn_reminder',
    // Any instance's sweep may mark it, holding the game or not: the row's lock makes one first.
    advisory: true,
    apply: (stored) => {
      const marks = stored.marks ?? noMarks(view.seats.length);
      if (marks.remindedTurn === due.turn) return null;
      first = true;
      return { marks: { ...marks, remindedTurn: due.turn } };
    },
  });
  if (!first) return;
  try {
    games.turnEvents.reminder({ playerId, gameId: due.id, turn: due.turn, deadline: due.deadline });
  } catch (err) {
    games.log.error({ err, gameId: due.id }, 'the turn notifier failed');
  }
}
