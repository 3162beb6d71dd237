// Where games live: each game is its record (setup, seed, ordered moves) plus who holds each
// seat. Every call returns a promise that settles once the write has committed: a room applies
// and broadcasts an accepted move only after that. SqliteStore (sqlite-store.ts) is the default;
// PostgresStore (postgres-store.ts) serves several instances; MemoryStore keeps everything in
// memory (tests).

import type { Rules } from '../../bot-engine/rules.ts';
import type { RecordMove } from '../../bot-engine/record.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';

import type { SeatKind } from '../wire/game.ts';
import { CodedError } from '../errors.ts';

export type { SeatKind };

export interface SeatSetup {
  kind: SeatKind;
  /** Bots only. */
  level?: BotLevel;
}

export interface ClockSetup {
  /** Seconds a person has for a turn before a stand-in bot plays it; null = no clock. */
  turnSeconds: number | null;
  /** Seconds a person may stay disconnected before a stand-in bot plays for them (games with
   * two or more people; solo games simply wait). */
  graceSeconds: number;
}

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
}

export interface SeatHolder {
  name: string;
  /** SHA-256 of the seat token, hex; null for bots. The token itself is never stored. */
  tokenHash: string | null;
}

/** How a game ended: played to the last tile, or abandoned (expired; scored as it stood). */
export interface GameEnd {
  abandoned: boolean;
  /** Final score per seat, stored so listings never replay a record; null for games finished
   * before scores were stored (their listing replays the record once). */
  scores: number[] | null;
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
}

/** A stored game whose data does not parse or does not replay (damaged on disk or by hand):
 * set aside, its id answers `game_damaged`, every other game is served. */
export interface DamagedGame {
  id: string;
  damaged: string;
}

export function isDamaged(game: StoredGame | DamagedGame): game is DamagedGame {
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

/** A finished game's analysis as kept: a JSON document the store does not look into beyond its
 * creation time (server/analysis/stored.ts defines it and maps it to the wire). */
export interface AnalysisDocument {
  createdAt: string;
}

/** What an operator's tool (`npm run games`) needs of a store besides the game contract. */
export interface StoreMaintenance {
  /** Every game id, oldest first. */
  ids(): Promise<string[]>;
  /** The game's rows as stored, unparsed where the store keeps text; undefined: no such game. */
  raw(id: string): Promise<Record<string, unknown> | undefined>;
  /** Deletes the game with its moves, seat names and analysis; false: no such game. */
  remove(id: string): Promise<boolean>;
}

/** Why a store could not write, in words a player can be shown. */
export const STORAGE_CAUSES = {
  disk: 'the server is short of disk',
  database_unreachable: 'the database cannot be reached',
  database_busy: 'the database did not answer in time',
  database_failed: 'the database refused the write',
} as const;
export type StorageCause = keyof typeof STORAGE_CAUSES;

/** A write the store could not commit (disk full, I/O error, read-only file, a database that
 * cannot be reached): nothing of it was kept, and the caller must change nothing either.
 * `kind` says which, set by the store that failed. */
export class StorageError extends CodedError {
  override name = 'StorageError';
  readonly kind: StorageCause;
  constructor(message: string, options?: ErrorOptions & { kind?: StorageCause }) {
    super('storage_unavailable', message, { ...options, retryAfterSeconds: 10 });
    this.kind = options?.kind ?? 'disk';
  }
  /** The cause, for a player: "the database cannot be reached". */
  get reason(): string {
    return STORAGE_CAUSES[this.kind];
  }
  /** The store's own words (SQLite's, PostgreSQL's) stay in the log; the player gets the cause. */
  override get clientMessage(): string {
    return `the server could not store this (${this.reason}); nothing changed: retry later`;
  }
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

export interface ListFinishedQuery {
  limit?: number;
  /** Cursor from the previous page's `next`. */
  before?: string;
  /** Only games where a seat holder has this name (any case). */
  player?: string;
}

/** A finished game as listed: no moves (listing never replays). */
export interface FinishedEntry {
  setup: GameSetup;
  holders: (SeatHolder | null)[];
  end: GameEnd;
  finishedAt: string;
}

export interface FinishedPage {
  games: FinishedEntry[];
  /** Cursor for the next (older) page, or null. */
  next: string | null;
}

/** Every write either commits whole or rejects with StorageError having kept nothing. */
export interface GameStore {
  create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void>;
  takeSeat(id: string, seat: number, holder: SeatHolder): Promise<void>;
  /** Appends accepted moves (a placement and any discards it caused) in order; `end` when the
   * game is over with them (no moves and an `end`: the game is abandoned as it stands). */
  appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void>;
  /** Links a finished game to its rematch, once: RematchTakenError when it has another already. */
  setRematch(id: string, rematchId: string): Promise<void>;
  /** A person of the game was seen at `at` (ms since the epoch); a later mark never moves back. */
  markSeen(id: string, at: number): Promise<void>;
  /** Counts a hint given to `seat`. */
  recordHint(id: string, seat: number): Promise<void>;
  /** Stores (or replaces) a finished game's analysis. */
  saveAnalysis(id: string, analysis: AnalysisDocument): Promise<void>;
  getAnalysis(id: string): Promise<AnalysisDocument | undefined>;
  /** A small write that shows whether the store can commit again (readiness after a failure). */
  probe(): Promise<void>;
  /** DamagedGameError when the game's stored data does not parse. */
  get(id: string): Promise<StoredGame | undefined>;
  /** Games not finished (for restart recovery); a damaged one as a marker. */
  unfinished(): Promise<(StoredGame | DamagedGame)[]>;
  /** Finished games, most recent first (a damaged one is left out of its page). */
  listFinished(query: ListFinishedQuery): Promise<FinishedPage>;
  close(): Promise<void>;
}

export class MemoryStore implements GameStore {
  private readonly games = new Map<string, StoredGame>();
  private readonly finishedAt = new Map<string, string>();
  private readonly analyses = new Map<string, AnalysisDocument>();

  async create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    if (this.games.has(setup.id)) throw new Error(`game ${setup.id} already exists`);
    const at = createdAtMs(setup);
    this.games.set(setup.id, {
      setup: structuredClone(setup),
      holders: structuredClone(holders),
      moves: [],
      finished: false,
      end: null,
      rematch: null,
      hints: [],
      lastActivityAt: at,
      lastPersonAt: at,
    });
  }

  async markSeen(id: string, at: number): Promise<void> {
    const g = this.must(id);
    g.lastPersonAt = Math.max(g.lastPersonAt ?? 0, at);
  }

  async recordHint(id: string, seat: number): Promise<void> {
    const hints = this.must(id).hints;
    hints[seat] = (hints[seat] ?? 0) + 1;
  }

  async saveAnalysis(id: string, analysis: AnalysisDocument): Promise<void> {
    this.must(id);
    this.analyses.set(id, structuredClone(analysis));
  }

  async getAnalysis(id: string): Promise<AnalysisDocument | undefined> {
    const a = this.analyses.get(id);
    return a && structuredClone(a);
  }

  async takeSeat(id: string, seat: number, holder: SeatHolder): Promise<void> {
    const g = this.must(id);
    g.holders[seat] = { ...holder };
    g.lastActivityAt = g.lastPersonAt = Date.now();
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    const g = this.must(id);
    g.moves.push(...moves.map((m) => ({ ...m })));
    if (moves.length > 0) g.lastActivityAt = Date.now();
    if (!end) return;
    g.finished = true;
    g.end = structuredClone(end);
    this.finishedAt.set(id, new Date().toISOString());
  }

  async setRematch(id: string, rematchId: string): Promise<void> {
    const g = this.must(id);
    if (g.rematch && g.rematch !== rematchId) throw new RematchTakenError(id, g.rematch);
    g.rematch = rematchId;
  }

  async probe(): Promise<void> {}

  async get(id: string): Promise<StoredGame | undefined> {
    const g = this.games.get(id);
    return g && structuredClone(g);
  }

  async unfinished(): Promise<(StoredGame | DamagedGame)[]> {
    return [...this.games.values()].filter((g) => !g.finished).map((g) => structuredClone(g));
  }

  async listFinished(query: ListFinishedQuery): Promise<FinishedPage> {
    const limit = Math.max(1, Math.min(100, query.limit ?? 20));
    const player = query.player?.toLowerCase();
    const key = (id: string) => `${this.finishedAt.get(id)}\u0000${id}`;
    const before = query.before === undefined ? undefined : Buffer.from(query.before, 'base64url').toString('utf8');
    const all = [...this.games.values()]
      .filter((g) => g.finished && (!player || g.holders.some((h) => h?.name.toLowerCase() === player)))
      .filter((g) => before === undefined || key(g.setup.id) < before)
      .sort((a, b) => (key(a.setup.id) < key(b.setup.id) ? 1 : -1));
    const page = all.slice(0, limit).map((g) => ({ setup: structuredClone(g.setup), holders: structuredClone(g.holders), end: structuredClone(g.end!), finishedAt: this.finishedAt.get(g.setup.id)! }));
    const last = page[page.length - 1];
    return { games: page, next: all.length > limit && last ? Buffer.from(key(last.setup.id)).toString('base64url') : null };
  }

  async close(): Promise<void> {}

  private must(id: string): StoredGame {
    const g = this.games.get(id);
    if (!g) throw new Error(`no game ${id}`);
    return g;
  }
}

/** A new game's activity starts at its creation (now, if its setup's time does not parse). */
export function createdAtMs(setup: GameSetup): number {
  const at = Date.parse(setup.createdAt);
  return Number.isFinite(at) ? at : Date.now();
}
