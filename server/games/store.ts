// Where games live: each game is its record (setup, seed, ordered moves) plus who holds each
// seat. Every call returns a promise that settles once the write has committed: a room applies
// and broadcasts an accepted move only after that. Each database's store is in its backend
// (server/storage/): SQLite is the default, PostgreSQL serves several instances, memory keeps
// everything in memory (tests). This file is the contract only: its types, the games' errors and
// the rules every store follows (page size, activity start); what any store fails with is
// server/storage/errors.ts.

import type { Rules } from '../../bot-engine/rules.ts';
import type { RecordMove } from '../../bot-engine/record.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';

import type { SeatKind } from '../wire/game.ts';
import type { RatedResult } from '../ratings/store.ts';
import { CodedError } from '../errors.ts';

export type { SeatKind };

export interface SeatSetup {
  kind: SeatKind;
  /** Bots only. */
  level?: BotLevel;
  /** A person seat kept for this player (challenged by name at creation): only they may take it. */
  player?: { id: string; name: string };
}

export interface ClockSetup {
  /** Seconds a person has for a turn before a stand-in bot plays it; null = no clock. */
  turnSeconds: number | null;
  /** Seconds a person may stay disconnected before a stand-in bot plays for them (games with
   * two or more people; solo games simply wait). */
  graceSeconds: number;
}

/** Days a person has for a move in a turn-based game. */
export const MOVE_DAYS = [1, 2, 3, 5, 7] as const;
export type MoveDays = (typeof MOVE_DAYS)[number];

/** A game played over days: each person has `moveDays` for a move, then their seat's stand-in
 * plays it (docs/RULES.md, "Pace"). A setup without a pace is live (every game stored before). */
export interface TurnBasedPace {
  kind: 'turnBased';
  moveDays: MoveDays;
}

/** Missed turns a person may have in a turn-based game: at the next one they are dropped (a bot
 * takes the seat for good and, in a rated game, they place last). */
export const MISSED_TURNS_DROP = 3;

export interface GameSetup {
  id: string;
  createdAt: string;
  seed: string;
  rules: Rules;
  seats: SeatSetup[];
  clock: ClockSetup;
  /** Level of the bot that plays for an absent or timed-out person. */
  standIn: BotLevel;
  /** The finished game this one is a rematch of: its players hold the person seats. */
  rematchOf?: string;
  /** Offered to anyone in the lobby's open games; otherwise only people with the link join. */
  listed?: boolean;
  /** The person may ask for the strongest move (games with one person and bots only). */
  hints?: boolean;
  /** Rated: every person seat is held by a signed-in player, and the result moves ratings. */
  rated?: boolean;
  /** Turn-based; absent: live. */
  pace?: TurnBasedPace;
}

/** The milliseconds a person has per move when deadlines apply (a turn-based game with two or
 * more people; one person against bots just waits for them), else null. */
export function moveMsOf(setup: Pick<GameSetup, 'pace' | 'seats'>): number | null {
  if (!setup.pace) return null;
  if (setup.seats.filter((s) => s.kind === 'person').length < 2) return null;
  return setup.pace.moveDays * 86_400_000;
}

/** A turn-based game's deadline bookkeeping, written before the move it leads to so that a
 * restart between the two neither counts nor plays anything twice. */
export interface DeadlineMarks {
  /** Missed turns per seat. */
  missed: number[];
  /** The turn whose miss was counted last (-1: none): a miss is counted once per turn. */
  missedTurn: number;
  /** The turn whose reminder was sent (-1: none): one reminder per turn. */
  remindedTurn: number;
  /** When each seat was dropped (ms since the epoch), or null. */
  droppedAt: (number | null)[];
}

export function noMarks(seats: number): DeadlineMarks {
  return { missed: new Array(seats).fill(0), missedTurn: -1, remindedTurn: -1, droppedAt: new Array(seats).fill(null) };
}

/** A turn-based game whose deadline is near or passed (GameStore.dueTurns). */
export interface DueTurn {
  id: string;
  /** When the current move's time runs out (ms since the epoch). */
  deadline: number;
  /** The game's time per move (ms). */
  moveMs: number;
  /** Record entries so far: the turn the deadline is for. */
  turn: number;
  marks: DeadlineMarks | null;
}

export interface SeatHolder {
  name: string;
  /** SHA-256 of the seat token, hex; null for bots. The token itself is never stored. */
  tokenHash: string | null;
  /** The signed-in player who took the seat: the seat is theirs on every device. Absent for
   * bots and for seats taken without a session (the token alone holds those). */
  playerId?: string;
}

/** How a game ended: played to the last tile, or abandoned (expired; scored as it stood). */
export interface GameEnd {
  abandoned: boolean;
  /** Final score per seat, stored so listings never replay a record; null for games finished
   * before scores were stored (their listing replays the record once). */
  scores: number[] | null;
  /** A rated game's result, for the store to move ratings in the same transaction as the end
   * (server/ratings/); not kept with the game (the rating changes are). */
  rated?: RatedResult;
}

export interface StoredGame {
  setup: GameSetup;
  /** One entry per seat; null while a person seat is open. */
  holders: (SeatHolder | null)[];
  moves: RecordMove[];
  finished: boolean;
  /** Set once the game is over. */
  end: GameEnd | null;
  /** The rematch started from this finished game. */
  rematch: string | null;
  /** Hints each seat asked for (games with hints on); a seat that asked none may be absent. */
  hints: number[];
  /** When a seat was last taken or a move last stored (ms since the epoch): expiry counts from
   * it across restarts. Absent when the store does not know (a room then counts from its load). */
  lastActivityAt?: number;
  /** When a person was last seen: a seat taken, a seat holder connecting or leaving, or (while
   * one stays connected) a periodic mark (GameService's presence writes). */
  lastPersonAt?: number;
  /** Turn-based games: missed turns, reminders, drops; absent until the first is written. */
  marks?: DeadlineMarks;
}

/** A stored game whose data does not parse or does not replay (damaged on disk or by hand):
 * set aside, its id answers `game_damaged`, every other game is served. */
export interface DamagedGame {
  id: string;
  damaged: string;
}

export function isDamaged<G extends object>(game: G | DamagedGame): game is DamagedGame {
  return 'damaged' in game;
}

/** The game's stored data cannot be read or replayed (see DamagedGame). */
export class DamagedGameError extends CodedError {
  override name = 'DamagedGameError';
  readonly gameId: string;
  readonly reason: string;
  constructor(gameId: string, reason: string) {
    super('game_damaged', `game ${gameId} is damaged in the store (${reason}): it is set aside until an operator exports or removes it`);
    this.gameId = gameId;
    this.reason = reason;
  }
}

/** What an operator's tool (`npm run games`) needs of a store besides the game contract. */
export interface StoreMaintenance {
  /** Every game id, oldest first. */
  ids(): Promise<string[]>;
  /** The game's rows as stored, unparsed where the store keeps text; undefined: no such game. */
  raw(id: string): Promise<Record<string, unknown> | undefined>;
  /** Deletes the game with its moves, seat names and documents; false: no such game. */
  remove(id: string): Promise<boolean>;
}

/** A write refused because this instance no longer owns the game (its lease ran out and another
 * instance took it over: docs/OPERATIONS.md). Nothing of it was kept; the room must let go. */
export class OwnershipLostError extends Error {
  override name = 'OwnershipLostError';
}

/** A finished game already has a rematch (another instance started it first): use that one. */
export class RematchTakenError extends Error {
  override name = 'RematchTakenError';
  readonly rematchId: string;
  constructor(gameId: string, rematchId: string) {
    super(`game ${gameId} already has the rematch ${rematchId}`);
    this.rematchId = rematchId;
  }
}

/** The game exists but another instance owns it (or is taking it over): ask again shortly. */
export class GameElsewhereError extends CodedError {
  override name = 'GameElsewhereError';
  constructor(message: string) {
    super('game_elsewhere', message, { retryAfterSeconds: 2 });
  }
}

/** What a metadata change sees of a game: everything but its setup and moves. */
export interface GameMetadata {
  holders: (SeatHolder | null)[];
  finished: boolean;
  rematch: string | null;
  hints: number[];
  lastActivityAt?: number;
  lastPersonAt?: number;
  marks?: DeadlineMarks;
}

/** The metadata a change sets; what it leaves out stays as stored. */
export type MetadataPatch = Partial<Pick<GameMetadata, 'holders' | 'rematch' | 'hints' | 'lastActivityAt' | 'lastPersonAt' | 'marks'>>;

/** A read-modify-write of one game's metadata, in one transaction (fenced in a cluster). */
export interface MetadataChange {
  /** What it is, for metrics and logs ('take_seat', 'rematch'…). */
  name: string;
  /** The patch to write given the metadata as stored; null writes nothing. A rule ("a rematch is
   * linked once") throws from here, and nothing is kept. */
  apply(stored: GameMetadata): MetadataPatch | null;
  /** Not fenced: a mark an instance that just lost the game may still write (presence). */
  advisory?: boolean;
}

/** A document kept beside a game, opaque to the store beyond its creation time. */
export type DocumentKind = 'analysis';

export interface GameDocument {
  createdAt: string;
}

/** Which games to list. Pages run most recent first: finished games by when they finished, the
 * others by when they were created. */
export interface GameQuery {
  finished: boolean;
  /** Only listed games with an open seat (the lobby). */
  open?: boolean;
  /** Only games their players made public: listed or rated (a player's profile). */
  publicOnly?: boolean;
  /** Only games where a seat holder has this name (any case). */
  player?: string;
  /** Only games where a seat is held by this signed-in player. */
  playerId?: string;
  /** With `playerId`: also the games with a seat kept for them (challenged by name). */
  invited?: boolean;
  /** Page size: 1 to 100, 20 when unset. */
  limit?: number;
  /** Cursor from the previous page's `next`. */
  before?: string;
  /** Each game with its moves: whole games in one read (restart recovery, the lobby across
   * instances), where a listing otherwise carries none. */
  withMoves?: boolean;
  /** Only games of this pace (restart recovery loads live games; turn-based ones load when
   * opened or due). */
  pace?: 'live' | 'turnBased';
}

/** A game as listed: no moves unless the query asked for them (a listing never replays). */
export interface ListedGame extends Omit<StoredGame, 'moves'> {
  /** Null while the game is not finished. */
  finishedAt: string | null;
  /** Present when the query asked for them (`withMoves`). */
  moves?: RecordMove[];
}

export interface GamePage {
  /** A game whose row does not parse is a marker in its place. */
  games: (ListedGame | DamagedGame)[];
  /** Cursor for the next (older) page, or null. */
  next: string | null;
}

/** Games as records plus metadata, the same over every store: features (seats, rematch, hints,
 * presence, analysis) are uses of these operations (store-operations.ts), not methods of their
 * own. Every write either commits whole or rejects with StorageError having kept nothing; in a
 * cluster, writes to an unfinished game are fenced (OwnershipLostError). */
export interface GameStore {
  /** A new game with its seat holders; fails when the id is taken. */
  create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void>;
  /** One game whole; DamagedGameError when its stored data does not parse. */
  get(id: string): Promise<StoredGame | undefined>;
  /** Appends accepted moves (a placement and any discards it caused) in order; `end` when the
   * game is over with them (no moves and an `end`: the game is abandoned as it stands). */
  appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void>;
  /** Changes a game's metadata (see MetadataChange). */
  update(id: string, change: MetadataChange): Promise<void>;
  list(query: GameQuery): Promise<GamePage>;
  /** Unfinished, fully seated turn-based games with deadlines whose deadline is at or before
   * `before` (ms since the epoch), soonest first, at most `limit`. A deadline is the last
   * activity (a seat taken, a move stored) plus the game's time per move: it moves with each
   * stored move, in the move's own transaction. */
  dueTurns(before: number, limit: number): Promise<DueTurn[]>;
  /** Stores (or replaces) a document of the game. */
  putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void>;
  getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined>;
  /** A small write that shows whether the store can commit again (readiness after a failure). */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** A query's page size. */
export function pageSize(query: GameQuery): number {
  return Math.max(1, Math.min(100, query.limit ?? 20));
}

/** A new game's activity starts at its creation (now, if its setup's time does not parse). */
export function createdAtMs(setup: GameSetup): number {
  const at = Date.parse(setup.createdAt);
  return Number.isFinite(at) ? at : Date.now();
}
