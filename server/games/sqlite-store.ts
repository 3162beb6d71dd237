// The default store: an embedded SQLite file (node:sqlite, WAL) under the data directory.
// Each call is one transaction, committed before its promise settles (node:sqlite is
// synchronous; the promise is the GameStore interface), so an accepted move is on disk before
// anyone is told of it. WAL with synchronous=NORMAL survives a killed process; FULL
// (the `durability: 'full'` option) also survives power loss, at an fsync per move.

import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordMove } from '../../bot-engine/record.ts';
import {
  type AnalysisDocument,
  createdAtMs,
  type DamagedGame,
  type FinishedPage,
  type GameEnd,
  type GameSetup,
  type GameStore,
  type ListFinishedQuery,
  RematchTakenError,
  type SeatHolder,
  StorageError,
  type StoreMaintenance,
  type StoredGame,
} from './store.ts';
import { activityOf, decodeCursor, encodeCursor, ownSetup, parseRow, parseRows, StoreOpenError } from './store-common.ts';

export interface SqliteStoreOptions {
  /** Database file path, or ':memory:'. */
  path: string;
  durability?: 'normal' | 'full';
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  setup TEXT NOT NULL,
  holders TEXT NOT NULL,
  move_count INTEGER NOT NULL DEFAULT 0,
  finished INTEGER NOT NULL DEFAULT 0,
  finished_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS games_unfinished ON games (finished) WHERE finished = 0;
CREATE INDEX IF NOT EXISTS games_finished_recent ON games (finished_at DESC, id DESC) WHERE finished = 1;
CREATE TABLE IF NOT EXISTS moves (
  game_id TEXT NOT NULL REFERENCES games (id),
  seq INTEGER NOT NULL,
  move TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_names (
  game_id TEXT NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL,
  name TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seat_names_by_name ON seat_names (name);
`;

/** Schema changes since the first release, in order; PRAGMA user_version counts those applied. */
const MIGRATIONS = [
  `ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE games ADD COLUMN final_scores TEXT;
   ALTER TABLE games ADD COLUMN rematch_id TEXT;
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`,
  `ALTER TABLE games ADD COLUMN hints TEXT;
   CREATE TABLE analyses (game_id TEXT PRIMARY KEY REFERENCES games (id), created_at TEXT NOT NULL, body TEXT NOT NULL) STRICT;`,
  // Expiry counts from stored activity (ms since the epoch). Games stored before this count from
  // the first boot that migrates them: when they last moved was not kept.
  `ALTER TABLE games ADD COLUMN last_activity_at INTEGER;
   ALTER TABLE games ADD COLUMN last_person_at INTEGER;
   UPDATE games SET last_activity_at = CAST(unixepoch('subsec') * 1000 AS INTEGER), last_person_at = CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE finished = 0;`,
];

type Row = Record<string, unknown>;

export class SqliteStore implements GameStore, StoreMaintenance {
  private readonly db: DatabaseSync;
  private readonly statements;

  constructor(options: SqliteStoreOptions) {
    try {
      if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
      this.db = new DatabaseSync(options.path);
      this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 2000;`);
      this.migrate();
      // A file we can read but not write must fail here, not at the first game.
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('opened_at', ?)").run(new Date().toISOString());
    } catch (e) {
      throw new StoreOpenError(`cannot use the database ${options.path}: ${(e as Error).message}`, { cause: e });
    }
    const db = this.db;
    this.statements = {
      insertGame: db.prepare('INSERT INTO games (id, created_at, setup, holders, last_activity_at, last_person_at) VALUES (?, ?, ?, ?, ?, ?)'),
      setHolders: db.prepare('UPDATE games SET holders = ?, last_activity_at = ?, last_person_at = ? WHERE id = ?'),
      seen: db.prepare('UPDATE games SET last_person_at = max(coalesce(last_person_at, 0), ?) WHERE id = ? AND finished = 0'),
      setName: db.prepare('INSERT OR REPLACE INTO seat_names (game_id, seat, name) VALUES (?, ?, ?)'),
      game: db.prepare('SELECT * FROM games WHERE id = ?'),
      moves: db.prepare('SELECT move FROM moves WHERE game_id = ? ORDER BY seq'),
      insertMove: db.prepare('INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)'),
      advance: db.prepare('UPDATE games SET move_count = move_count + ?, last_activity_at = coalesce(?, last_activity_at) WHERE id = ?'),
      end: db.prepare('UPDATE games SET finished = 1, finished_at = ?, abandoned = ?, final_scores = ? WHERE id = ?'),
      setRematch: db.prepare('UPDATE games SET rematch_id = ? WHERE id = ?'),
      setHints: db.prepare('UPDATE games SET hints = ? WHERE id = ?'),
      saveAnalysis: db.prepare('INSERT OR REPLACE INTO analyses (game_id, created_at, body) VALUES (?, ?, ?)'),
      analysis: db.prepare('SELECT body FROM analyses WHERE game_id = ?'),
      probe: db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('probed_at', ?)"),
      unfinished: db.prepare('SELECT * FROM games WHERE finished = 0 ORDER BY created_at, id'),
    };
  }

  private migrate(): void {
    this.db.exec(SCHEMA);
    const version = Number((this.db.prepare('PRAGMA user_version').get() as Row).user_version);
    for (let v = version; v < MIGRATIONS.length; v++) {
      this.transaction(() => {
        this.db.exec(MIGRATIONS[v]);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
      });
    }
  }

  async create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    this.transaction(() => {
      const at = createdAtMs(setup);
      this.statements.insertGame.run(setup.id, setup.createdAt, JSON.stringify(setup), JSON.stringify(holders), at, at);
      for (const [seat, h] of holders.entries()) if (h) this.statements.setName.run(setup.id, seat, h.name);
    });
  }

  async takeSeat(id: string, seat: number, holder: SeatHolder): Promise<void> {
    this.transaction(() => {
      const row = this.row(id);
      const holders = parseRow(id, () => JSON.parse(row.holders as string) as (SeatHolder | null)[]);
      if (seat < 0 || seat >= holders.length) throw new Error(`game ${id} has no seat ${seat}`);
      holders[seat] = { ...holder };
      const now = Date.now();
      this.statements.setHolders.run(JSON.stringify(holders), now, now, id);
      this.statements.setName.run(id, seat, holder.name);
    });
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    this.transaction(() => {
      const start = Number(this.row(id).move_count);
      for (const [i, m] of moves.entries()) this.statements.insertMove.run(id, start + i, JSON.stringify(m));
      this.statements.advance.run(moves.length, moves.length > 0 ? Date.now() : null, id);
      if (end) this.statements.end.run(new Date().toISOString(), end.abandoned ? 1 : 0, JSON.stringify(end.scores), id);
    });
  }

  async setRematch(id: string, rematchId: string): Promise<void> {
    this.transaction(() => {
      const taken = this.row(id).rematch_id as string | null;
      if (taken && taken !== rematchId) throw new RematchTakenError(id, taken);
      this.statements.setRematch.run(rematchId, id);
    });
  }

  async markSeen(id: string, at: number): Promise<void> {
    this.transaction(() => this.statements.seen.run(Math.round(at), id));
  }

  async recordHint(id: string, seat: number): Promise<void> {
    this.transaction(() => {
      const hints = parseRow(id, () => hintsOf(this.row(id)));
      hints[seat] = (hints[seat] ?? 0) + 1;
      this.statements.setHints.run(JSON.stringify(hints), id);
    });
  }

  async saveAnalysis(id: string, analysis: AnalysisDocument): Promise<void> {
    this.transaction(() => {
      this.row(id);
      this.statements.saveAnalysis.run(id, analysis.createdAt, JSON.stringify(analysis));
    });
  }

  async getAnalysis(id: string): Promise<AnalysisDocument | undefined> {
    const row = this.statements.analysis.get(id) as Row | undefined;
    return row && parseRow(id, () => JSON.parse(row.body as string) as AnalysisDocument);
  }

  async probe(): Promise<void> {
    this.transaction(() => this.statements.probe.run(new Date().toISOString()));
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const row = this.statements.game.get(id) as Row | undefined;
    return row && this.toGame(row);
  }

  async unfinished(): Promise<(StoredGame | DamagedGame)[]> {
    return parseRows(this.statements.unfinished.all() as Row[], (row) => this.toGame(row));
  }

  /** Finished games, most recent first; `player` matches a seat holder's name (any case). */
  async listFinished(query: ListFinishedQuery): Promise<FinishedPage> {
    const limit = Math.max(1, Math.min(100, query.limit ?? 20));
    const where = ['g.finished = 1'];
    const params: (string | number)[] = [];
    if (query.player) {
      where.push('EXISTS (SELECT 1 FROM seat_names n WHERE n.game_id = g.id AND n.name = ?)');
      params.push(query.player);
    }
    if (query.before) {
      const [at, id] = decodeCursor(query.before);
      where.push('(g.finished_at < ? OR (g.finished_at = ? AND g.id < ?))');
      params.push(at, at, id);
    }
    const rows = this.db.prepare(`SELECT g.* FROM games g WHERE ${where.join(' AND ')} ORDER BY g.finished_at DESC, g.id DESC LIMIT ?`).all(...params, limit + 1) as Row[];
    const shown = rows.slice(0, limit);
    // A damaged row is left out of its page; the cursor still follows the rows as stored.
    const page = shown.flatMap((row) => {
      try {
        return [ownSetup(row.id as string, { setup: JSON.parse(row.setup as string), holders: JSON.parse(row.holders as string), end: endOf(row)!, finishedAt: row.finished_at as string })];
      } catch {
        return [];
      }
    });
    const last = shown[shown.length - 1];
    return { games: page, next: rows.length > limit && last ? encodeCursor(last.finished_at as string, last.id as string) : null };
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }

  private row(id: string): Row {
    const row = this.statements.game.get(id) as Row | undefined;
    if (!row) throw new Error(`no game ${id}`);
    return row;
  }

  /** DamagedGameError when a column or a move does not parse. */
  private toGame(row: Row): StoredGame {
    const id = row.id as string;
    return parseRow(id, () =>
      ownSetup(id, {
        setup: JSON.parse(row.setup as string),
        holders: JSON.parse(row.holders as string),
        moves: (this.statements.moves.all(id) as Row[]).map((m, i) => parseMove(m.move as string, i)),
        finished: row.finished === 1,
        end: endOf(row),
        rematch: (row.rematch_id as string | null) ?? null,
        hints: hintsOf(row),
        ...activityOf(row),
      }),
    );
  }

  // --- Operators' maintenance (npm run games) ---------------------------------------------------

  async ids(): Promise<string[]> {
    return (this.db.prepare('SELECT id FROM games ORDER BY created_at, id').all() as Row[]).map((r) => r.id as string);
  }

  async raw(id: string): Promise<Record<string, unknown> | undefined> {
    const row = this.statements.game.get(id) as Row | undefined;
    if (!row) return undefined;
    const moves = (this.db.prepare('SELECT seq, move FROM moves WHERE game_id = ? ORDER BY seq').all(id) as Row[]).map((m) => ({ seq: m.seq, move: m.move }));
    const analysis = this.statements.analysis.get(id) as Row | undefined;
    return { ...row, moves, analysis: analysis?.body ?? null };
  }

  async remove(id: string): Promise<boolean> {
    let found = false;
    this.transaction(() => {
      for (const table of ['moves', 'seat_names', 'analyses']) this.db.prepare(`DELETE FROM ${table} WHERE game_id = ?`).run(id);
      found = Number(this.db.prepare('DELETE FROM games WHERE id = ?').run(id).changes) > 0;
    });
    return found;
  }

  /** One transaction; on any failure nothing of it is kept. SQLite rolls back by itself on some
   * errors (a full disk): a second ROLLBACK would then fail and hide the real cause. */
  private transaction(fn: () => void): void {
    try {
      this.db.exec('BEGIN IMMEDIATE');
      fn();
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      if ((e as NodeJS.ErrnoException).code === 'ERR_SQLITE_ERROR') throw new StorageError(`the game store could not write: ${(e as Error).message}`, { cause: e });
      throw e;
    }
  }
}

/** A finished row's end; rows finished before final scores were stored have none (scores: null). */
function endOf(row: Row): GameEnd | null {
  if (row.finished !== 1) return null;
  return { abandoned: row.abandoned === 1, scores: row.final_scores ? JSON.parse(row.final_scores as string) : null };
}

function parseMove(text: string, seq: number): RecordMove {
  try {
    return JSON.parse(text) as RecordMove;
  } catch (e) {
    throw new Error(`move ${seq}: ${(e as Error).message}`);
  }
}

function hintsOf(row: Row): number[] {
  return row.hints ? (JSON.parse(row.hints as string) as number[]) : [];
}
