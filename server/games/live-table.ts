// One game's table as it stands in a room: its state, its record so far (each move's frame and
// the game's end), who holds each seat, and the rematch linked. What callers read of a live game
// is answered here; only the room that runs the table (room.ts, which extends it) changes it,
// each change after its write has committed.

import type { GameState } from '../../bot-engine/state.ts';
import type { GameStatus, LastMove } from '../wire/game.ts';
import { Seats, withoutKept } from './seats.ts';
import { HeldState } from './state-stock.ts';
import type { GameEnd, GameSetup, StoredGame } from './store.ts';
import { type Applied, type MoveError, tableStatus, turnProblem } from './table.ts';
import type { TableShown } from './view.ts';

export class LiveTable {
  readonly id: string;
  readonly setup: GameSetup;
  /** Replaced, never mutated, by a move: a move whose write fails leaves it as it was. */
  protected readonly held: HeldState;
  protected readonly seats: Seats;
  protected ended: GameEnd | null;
  protected rematchId: string | null;
  /** The last move's frame since this room started (null after a restore). */
  protected lastMove: LastMove | null = null;
  private movesCount: number;
  /** Every move so far, for connections that join or come back mid-game. */
  private readonly moves: LastMove[];

  protected constructor(stored: StoredGame, state: GameState, moves: LastMove[]) {
    this.id = stored.setup.id;
    this.setup = stored.setup;
    this.held = new HeldState(state);
    this.seats = new Seats(stored.holders);
    this.ended = stored.end;
    this.rematchId = stored.rematch;
    this.movesCount = stored.moves.length;
    this.moves = moves;
  }

  get state(): GameState {
    return this.held.current;
  }

  get status(): GameStatus {
    return tableStatus(this.state, this.seats.full);
  }

  /** Record entries so far (placements and discards): the turn a frame quotes. */
  get turn(): number {
    return this.movesCount;
  }

  get openSeats(): number[] {
    return this.seats.openSeats;
  }

  get rematch(): string | null {
    return this.rematchId;
  }

  /** The seat a token holds, or null. */
  seatOf(token: string): number | null {
    return this.seats.seatOf(token);
  }

  /** The seat to move (while playing). */
  get currentSeat(): number {
    return this.state.currentPlayer;
  }

  /** The signed-in player holding `seat`, or null. */
  playerId(seat: number): string | null {
    return this.seats.playerId(seat) ?? null;
  }

  /** The seat a signed-in player holds, or null. */
  seatOfPlayer(playerId: string): number | null {
    return this.seats.seatOfPlayer(playerId);
  }

  holderName(seat: number): string | null {
    return this.seats.name(seat);
  }

  /** Every move so far, as the live frames showed it (bot timings only for moves made since
   * this server started: the record does not keep them). */
  history(): LastMove[] {
    return this.moves.slice();
  }

  /** A deleted player's kept seats become ordinary open ones (as the store has them now); false
   * when none was kept for them. The setup is changed in place: every part of the room reads it. */
  protected forgetKept(playerId: string): boolean {
    const seats = withoutKept(this.setup.seats, playerId);
    if (!seats) return false;
    this.setup.seats.splice(0, seats.length, ...seats);
    return true;
  }

  /** What every view shows of the table itself (the room adds who is here, stand-ins, bots, hints). */
  protected shown(): Pick<TableShown, 'setup' | 'state' | 'status' | 'turn' | 'name' | 'playerId' | 'rematch' | 'abandoned'> {
    const seats = this.seats;
    return {
      setup: this.setup,
      state: this.state,
      status: this.status,
      turn: this.turn,
      name: (i) => seats.name(i),
      playerId: (i) => seats.playerId(i),
      rematch: this.rematchId,
      abandoned: this.ended?.abandoned ?? false,
    };
  }

  /** Why `seat` may not act on `turn` now, or null. */
  protected turnProblem(seat: number, turn: number): MoveError | null {
    return turnProblem({ setup: this.setup, state: this.state, turn: this.movesCount, seated: this.seats.full }, seat, turn);
  }

  /** A move is stored: the table takes it (`end` when it ended the game). */
  protected took({ next, recorded, last }: Applied, end: GameEnd | null): void {
    this.held.replace(next);
    this.ended = end;
    this.movesCount += recorded.length;
    this.lastMove = last;
    this.moves.push(last);
  }

  /** The game's end as it stands is stored (it expired). */
  protected endedAs(next: GameState, end: GameEnd): void {
    this.held.replace(next);
    this.ended = end;
  }
}
