// A stored game read without a live room: its record (tessera-game/1), for the record route,
// analysis and the listing of finished games; a finished game as a read model (its summary, its
// seats' tokens, its rematch); and (played on another instance) a watcher's view of it as it
// stands, for its summary and the lobby.

import { type GameRecord, RECORD_FORMAT, replayRecord } from '../../bot-engine/record.ts';
import type { GameView } from '../wire/game.ts';
import { recordNames, Seats } from './seats.ts';
import type { GameSetup, StoredGame } from './store.ts';
import { tableStatus } from './table.ts';
import { seatView, viewInputOf } from './view.ts';

/** The record a stored game replays from (open seats get placeholder names). */
export function recordOf(stored: StoredGame): GameRecord {
  return {
    format: RECORD_FORMAT,
    rules: stored.setup.rules,
    players: recordNames(stored.holders),
    seed: stored.setup.seed,
    moves: stored.moves,
    final: stored.finished,
    ...(stored.end?.abandoned ? { abandoned: true } : {}),
    ...(stored.setup.pace ? { pace: { ...stored.setup.pace } } : {}),
  };
}

/** What a game's summary reads: a live room, or a snapshot of a stored game. */
export interface ReadableGame {
  readonly id: string;
  readonly setup: GameSetup;
  readonly openSeats: number[];
  view(seat: null): GameView;
}

/** A stored game as a watcher here would see it (replayed once; throws if it does not replay).
 * Who is connected is only known where it is played: nobody is, no stand-in, no clock running. */
export function snapshotOf(stored: StoredGame): ReadableGame {
  const seats = new Seats(stored.holders);
  const view = watcherView(stored, seats);
  return { id: stored.setup.id, setup: stored.setup, openSeats: seats.openSeats, view: () => view };
}

/** A finished game read from the store, with no room: what its summary and a rematch read.
 * Nobody plays it any more; a room is built only for connections that watch it. */
export class FinishedTable implements ReadableGame {
  readonly status = 'finished';
  /** As read; the room built for watchers starts from it. */
  readonly stored: StoredGame;
  private readonly seats: Seats;
  private shown: GameView;

  /** Replays `stored` once (throws if it does not replay). */
  constructor(stored: StoredGame) {
    this.stored = stored;
    this.seats = new Seats(stored.holders);
    this.shown = watcherView(stored, this.seats);
  }

  get id(): string {
    return this.stored.setup.id;
  }

  get setup(): GameSetup {
    return this.stored.setup;
  }

  get openSeats(): number[] {
    return this.seats.openSeats;
  }

  get rematch(): string | null {
    return this.shown.rematch;
  }

  /** The rematch once stored. */
  set rematch(id: string) {
    this.shown = { ...this.shown, rematch: id };
  }

  view(): GameView {
    return this.shown;
  }

  seatOf(token: string): number | null {
    return this.seats.seatOf(token);
  }

  seatOfPlayer(playerId: string): number | null {
    return this.seats.seatOfPlayer(playerId);
  }

  holderName(seat: number): string | null {
    return this.seats.name(seat);
  }
}

function watcherView(stored: StoredGame, seats: Seats): GameView {
  const { state } = replayRecord(recordOf(stored));
  const input = viewInputOf({
    setup: stored.setup,
    state,
    status: tableStatus(state, seats.full),
    turn: stored.moves.length,
    name: (i) => seats.name(i),
    playerId: (i) => seats.playerId(i),
    connected: () => false,
    standIn: () => null,
    botThinking: false,
    deadline: null,
    rematch: stored.rematch,
    abandoned: stored.end?.abandoned ?? false,
    hints: stored.hints,
  });
  return seatView(input, null);
}
