// A turn-based table's pace, as its room runs it: the stored marks (missed turns, drops), the
// deadline of the person to move, a missed turn counted and handed to the stand-in (or the seat
// dropped), and the notifier told whose turn it is. A live table has no pace: no deadline here
// (its seat clock has the turn clock), no turn events.

import type { Logger } from 'pino';
import type { GameStatus } from '../wire/game.ts';
import type { SeatClock } from './seat-clock.ts';
import { type DeadlineMarks, type GameSetup, MISSED_TURNS_DROP, moveMsOf, noMarks, type StoredGame } from './store.ts';
import type { TurnEvent, TurnNotifier } from './turn-events.ts';
import type { MoveError } from './table.ts';
import type { WriteQueue } from './write-queue.ts';

/** What a missed turn-based deadline did: the stand-in plays the move, the seat was dropped (a
 * bot plays it for good), or nothing (the turn had moved on, or is not a person's). */
export type MissedTurn = 'stand_in' | 'dropped' | 'none';

/** The table as the pace reads it. */
export interface PacedTable {
  readonly id: string;
  readonly setup: GameSetup;
  readonly status: GameStatus;
  readonly turn: number;
  readonly currentSeat: number;
  playerId(seat: number): string | null;
}

export interface TurnPaceParts {
  table: PacedTable;
  /** When anything last happened (a seat taken, a move): a turn-based move's time counts from it. */
  lastActivity(): number;
  clock: SeatClock;
  writes: WriteQueue;
  log: Logger;
  /** Told when the turn passes to a signed-in person; absent: nobody listens. */
  turns: TurnNotifier | undefined;
  /** The table changed (a stand-in took the turn): its room broadcasts it and starts bots. */
  changed(): void;
}

export class TurnPace {
  private readonly parts: TurnPaceParts;
  /** Turn-based with deadlines: the time per move (ms), else null. */
  private readonly moveMs: number | null;
  private marks: DeadlineMarks;

  constructor(stored: StoredGame, parts: TurnPaceParts) {
    this.parts = parts;
    this.moveMs = moveMsOf(stored.setup);
    this.marks = stored.marks ?? noMarks(stored.setup.seats.length);
    for (const [seat, at] of this.marks.droppedAt.entries()) if (at !== null) parts.clock.drop(seat, at);
  }

  /** When the current person's time runs out (ms since the epoch), or null: the live turn clock,
   * or a turn-based game's deadline (the last stored activity plus the time per move). */
  get deadline(): number | null {
    if (this.moveMs === null) return this.parts.clock.deadline;
    return this.personToMove() === null ? null : this.parts.lastActivity() + this.moveMs;
  }

  /** A seat dropped after MISSED_TURNS_DROP misses moves no more: why, or null. */
  dropped(seat: number): MoveError | null {
    if (this.parts.clock.reason(seat) !== 'dropped') return null;
    return { error: 'not_your_turn', message: `this seat was dropped after ${MISSED_TURNS_DROP} missed turns: a bot plays it for the rest of the game` };
  }

  /** The seat of the person to move in a playing game whom no bot stands in for, or null. */
  private personToMove(): number | null {
    const { table, clock } = this.parts;
    if (table.status !== 'playing') return null;
    const seat = table.currentSeat;
    return table.setup.seats[seat].kind === 'person' && clock.reason(seat) === null ? seat : null;
  }

  /** The turn-based deadline of `turn` passed: the miss is counted (stored first, once per turn,
   * so a restart in between counts nothing twice), then the seat's stand-in plays the move or, at
   * MISSED_TURNS_DROP misses, a bot takes the seat for good. */
  missTurn(turn: number, now: number): Promise<MissedTurn> {
    const { table, writes } = this.parts;
    return writes.run(async () => {
      if (table.status !== 'playing' || table.turn !== turn) return 'none';
      const seat = this.personToMove();
      if (seat === null) {
        this.parts.changed();
        return 'none';
      }
      let marks = this.marks;
      const counted = await writes.commit((store) =>
        store.update(table.id, {
          name: 'missed_turn',
          apply: (stored) => {
            marks = stored.marks ?? noMarks(table.setup.seats.length);
            if (marks.missedTurn === turn) return null;
            marks = missedOnce(marks, seat, turn, now);
            return { marks };
          },
        }),
      );
      if (!counted) return 'none';
      this.marks = marks;
      return this.standIn(seat);
    });
  }

  /** The counted miss is the stand-in's turn, or the seat's drop. */
  private standIn(seat: number): MissedTurn {
    const { clock, log } = this.parts;
    const dropped = this.marks.droppedAt[seat];
    if (dropped !== null) {
      clock.drop(seat, dropped);
      log.info({ seat, missed: this.marks.missed[seat] }, 'turn-based seat dropped after missed turns: a bot plays it for good');
    } else clock.missedTurn(seat);
    this.parts.changed();
    return dropped !== null ? 'dropped' : 'stand_in';
  }

  /** The signed-in person to move in a turn-based game, as a turn event; null otherwise. */
  private turnEvent(): TurnEvent | null {
    const { table } = this.parts;
    const seat = table.setup.pace ? this.personToMove() : null;
    const playerId = seat === null ? null : table.playerId(seat);
    return playerId ? { playerId, gameId: table.id, turn: table.turn, deadline: this.deadline } : null;
  }

  /** Tells the notifier whose turn it is now (turn-based games; a listener's fault is logged). */
  tellTurn(): void {
    const event = this.turnEvent();
    if (!event || !this.parts.turns) return;
    try {
      this.parts.turns.yourTurn(event);
    } catch (err) {
      this.parts.log.error({ err }, 'the turn notifier failed');
    }
  }
}

/** `seat` missed `turn`: one more miss, and dropped at MISSED_TURNS_DROP. */
function missedOnce(marks: DeadlineMarks, seat: number, turn: number, now: number): DeadlineMarks {
  const missed = marks.missed.map((n, i) => (i === seat ? n + 1 : n));
  const droppedAt = marks.droppedAt.map((at, i) => (i === seat && missed[i] >= MISSED_TURNS_DROP ? now : at));
  return { ...marks, missed, missedTurn: turn, droppedAt };
}
