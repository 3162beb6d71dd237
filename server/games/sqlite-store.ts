// The default store: an embedded SQLite file (node:sqlite, WAL) under the data directory.
// Each call is one transaction, committed before its promise settles (node:sqlite is
// synchronous; the promise is the GameStore interface), so an accepted move is on disk before
// anyone is told of it. WAL with synchronous=NORMAL survives a killed process; FULL
// (the `durability: 'full'` option) also survives power loss, at an fsync per move. In the
// server the WAL is copied back into the file by a thread of its own (wal-checkpointer.ts), not
// by a commit; a one-shot command leaves that to SQLite.

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { RecordMove } from '../../bot-engine/record.ts';
import {
  createdAtMs,
  type DocumentKind,
  type GameDocument,
  type GameEnd,
  type GameMetadata,
  type GamePage,
  type GameQuery,
  type GameSetup,
  type GameStore,
  type ListedGame,
  type MetadataChange,
  type MetadataPatch,
  pageSize,
  type SeatHolder,
  StorageError,
  type StoreMaintenance,
  type StoredGame,
} from './store.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';
import { SQLITE_ACCOUNTS_MIGRATION } from '../accounts/schema.ts';
import { SQLITE_RATINGS_MIGRATION } from '../ratings/schema.ts';
import { rateEndSqlite } from '../ratings/sqlite-ratings.ts';
import { activityOf, columnValue, DOCUMENT_TABLES, decodeCursor, encodeCursor, METADATA_COLUMNS, ownSetup, parseRow, parseRows, StoreOpenError } from './store-common.ts';

export interface SqliteStoreOptions {
  /** Database file path, or ':memory:'. */
  path: string;
  durability?: 'normal' | 'full';
  /** Who copies the WAL back into the file: SQLite inside the commit that fills it ('inline', the
   * default: a one-shot command or a test commits too little to stall), or a thread of the
   * store's own ('thread': the server turns it on, its commits then never stall the event loop). */
  walCheckpoints?: 'thread' | 'inline';
  /** Where a failing checkpoint thread is reported. */
  log?: Pick<Logger, 'warn'>;
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
  SQLITE_ACCOUNTS_MIGRATION,
  SQLITE_RATINGS_MIGRATION,
];

type Row = Record<string, unknown>;

export class SqliteStore implements GameStore, StoreMaintenance {
  private readonly db: DatabaseSync;
  private readonly statements;
  private readonly checkpointer: WalCheckpointer | null = null;
  private readonly statementsBySql = new Map<string, StatementSync>();

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
    if (options.path !== ':memory:' && options.walCheckpoints === 'thread') {
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
      const log = options.log;
      this.checkpointer = new WalCheckpointer(
        options.path,
        (reason) => {
          log?.warn({ err: reason }, 'the WAL checkpoint thread cannot run: SQLite checkpoints inside commits instead');
          if (this.db.isOpen) this.db.exec('PRAGMA wal_autocheckpoint = 1000');
        },
        (reason) => log?.warn({ err: reason }, 'a WAL checkpoint failed: tried again after more commits'),
      );
    }
    const db = this.db;
    this.statements = {
      insertGame: db.prepare('INSERT INTO games (id, created_at, setup, holders, last_activity_at, last_person_at) VALUES (?, ?, ?, ?, ?, ?)'),
      setName: db.prepare('INSERT OR REPLACE INTO seat_names (game_id, seat, name) VALUES (?, ?, ?)'),
      game: db.prepare('SELECT * FROM games WHERE id = ?'),
      metadata: db.prepare('SELECT id, holders, finished, rematch_id, hints, last_activity_at, last_person_at FROM games WHERE id = ?'),
      moves: db.prepare('SELECT move FROM moves WHERE game_id = ? ORDER BY seq'),
      insertMove: db.prepare('INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)'),
      // The new count says where the moves go: no read of the row before the write.
      advance: db.prepare('UPDATE games SET move_count = move_count + ?, last_activity_at = coalesce(?, last_activity_at) WHERE id = ? RETURNING move_count'),
      end: db.prepare('UPDATE games SET finished = 1, finished_at = ?, abandoned = ?, final_scores = ? WHERE id = ?'),
      probe: db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('probed_at', ?)"),
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

  async get(id: string): Promise<StoredGame | undefined> {
    const row = this.statements.game.get(id) as Row | undefined;
    return row && this.toGame(row);
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    this.transaction(() => {
      const advanced = this.statements.advance.get(moves.length, moves.length > 0 ? Date.now() : null, id) as Row | undefined;
      if (!advanced) throw new Error(`no game ${id}`);
      const start = Number(advanced.move_count) - moves.length;
      for (const [i, m] of moves.entries()) this.statements.insertMove.run(id, start + i, JSON.stringify(m));
      if (!end) return;
      const at = new Date().toISOString();
      this.statements.end.run(at, end.abandoned ? 1 : 0, JSON.stringify(end.scores), id);
      if (end.rated) rateEndSqlite(this.db, id, end.rated, at);
    });
  }

  async update(id: string, change: MetadataChange): Promise<void> {
    this.transaction(() => {
      const row = this.statements.metadata.get(id) as Row | undefined;
      if (!row) throw new Error(`no game ${id}`);
      const patch = change.apply(parseRow(id, () => metadataOf(row)));
      if (!patch) return;
      const set = Object.keys(patch) as (keyof MetadataPatch)[];
      if (set.length === 0) return;
      this.patchStatement(set).run(...set.map((k) => columnValue(patch, k)), id);
      if (patch.holders) for (const [seat, h] of patch.holders.entries()) if (h) this.statements.setName.run(id, seat, h.name);
    });
  }

  /** One prepared UPDATE per set of metadata columns a change writes (a handful in all). */
  private patchStatement(set: (keyof MetadataPatch)[]): StatementSync {
    return this.prepared(`UPDATE games SET ${set.map((k) => `${METADATA_COLUMNS[k]} = ?`).join(', ')} WHERE id = ?`);
  }

  /** A statement whose SQL is built per call (from a few shapes), prepared once per shape. */
  private prepared(sql: string): StatementSync {
    let statement = this.statementsBySql.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statementsBySql.set(sql, statement);
    }
    return statement;
  }

  async list(query: GameQuery): Promise<GamePage> {
    const limit = pageSize(query);
    const at = query.finished ? 'g.finished_at' : 'g.created_at';
    const where = [query.finished ? 'g.finished = 1' : 'g.finished = 0'];
    const params: (string | number)[] = [];
    if (query.open) where.push("json_extract(g.setup, '$.listed') = 1 AND EXISTS (SELECT 1 FROM json_each(g.holders) h WHERE h.type = 'null')");
    if (query.player) {
      where.push('EXISTS (SELECT 1 FROM seat_names n WHERE n.game_id = g.id AND n.name = ?)');
      params.push(query.player);
    }
    if (query.playerId) {
      where.push("EXISTS (SELECT 1 FROM json_each(g.holders) h WHERE h.type = 'object' AND json_extract(h.value, '$.playerId') = ?)");
      params.push(query.playerId);
    }
    if (query.before) {
      const [key, id] = decodeCursor(query.before);
      where.push(`(${at} < ? OR (${at} = ? AND g.id < ?))`);
      params.push(key, key, id);
    }
    const rows = this.prepared(`SELECT g.* FROM games g WHERE ${where.join(' AND ')} ORDER BY ${at} DESC, g.id DESC LIMIT ?`).all(...params, limit + 1) as Row[];
    const shown = rows.slice(0, limit);
    const games = await parseRows(shown, (row) => (query.withMoves ? { ...this.toListed(row), moves: this.movesOf(row.id as string) } : this.toListed(row)));
    const last = shown[shown.length - 1];
    return { games, next: rows.length > limit && last ? encodeCursor(String(query.finished ? last.finished_at : last.created_at), last.id as string) : null };
  }

  async putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void> {
    this.transaction(() => {
      this.prepared(`INSERT OR REPLACE INTO ${DOCUMENT_TABLES[kind]} (game_id, created_at, body) VALUES (?, ?, ?)`).run(id, document.createdAt, JSON.stringify(document));
    });
  }

  async getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined> {
    const row = this.prepared(`SELECT body FROM ${DOCUMENT_TABLES[kind]} WHERE game_id = ?`).get(id) as Row | undefined;
    return row && parseRow(id, () => JSON.parse(row.body as string) as GameDocument);
  }

  async probe(): Promise<void> {
    this.transaction(() => this.statements.probe.run(new Date().toISOString()));
  }

  async close(): Promise<void> {
    await this.checkpointer?.close();
    if (this.db.isOpen) this.db.close();
  }

  /** Checkpoints the checkpoint thread has run that copied something (0 without one). */
  get checkpoints(): number {
    return this.checkpointer?.checkpoints ?? 0;
  }

  /** DamagedGameError when a column or a move does not parse. */
  private toGame(row: Row): StoredGame {
    const id = row.id as string;
    const { finishedAt: _, ...listed } = this.toListed(row);
    return { ...listed, moves: this.movesOf(id) };
  }

  private movesOf(id: string): RecordMove[] {
    return parseRow(id, () => (this.statements.moves.all(id) as Row[]).map((m, i) => parseMove(m.move as string, i)));
  }

  private toListed(row: Row): ListedGame {
    const id = row.id as string;
    return parseRow(id, () => ownSetup(id, { setup: JSON.parse(row.setup as string), ...metadataOf(row), end: endOf(row), finishedAt: (row.finished_at as string | null) ?? null }));
  }

  // --- Operators' maintenance (npm run games) ---------------------------------------------------

  async ids(): Promise<string[]> {
    return (this.db.prepare('SELECT id FROM games ORDER BY created_at, id').all() as Row[]).map((r) => r.id as string);
  }

  async raw(id: string): Promise<Record<string, unknown> | undefined> {
    const row = this.statements.game.get(id) as Row | undefined;
    if (!row) return undefined;
    const moves = (this.db.prepare('SELECT seq, move FROM moves WHERE game_id = ? ORDER BY seq').all(id) as Row[]).map((m) => ({ seq: m.seq, move: m.move }));
    const analysis = this.db.prepare('SELECT body FROM analyses WHERE game_id = ?').get(id) as Row | undefined;
    return { ...row, moves, analysis: analysis?.body ?? null };
  }

  async remove(id: string): Promise<boolean> {
    let found = false;
    this.transaction(() => {
      for (const table of ['moves', 'seat_names', ...Object.values(DOCUMENT_TABLES)]) this.db.prepare(`DELETE FROM ${table} WHERE game_id = ?`).run(id);
      found = Number(this.db.prepare('DELETE FROM games WHERE id = ?').run(id).changes) > 0;
    });
    return found;
  }

  /** A transaction over this database for the tables kept beside the games (server/accounts/):
   * the same commit, rollback and error mapping as the games' own. */
  write<T>(fn: (db: DatabaseSync) => T): T {
    let result: T | undefined;
    this.transaction(() => {
      result = fn(this.db);
    });
    return result as T;
  }

  /** Reads outside a transaction (one statement each). */
  get database(): DatabaseSync {
    return this.db;
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
    this.checkpointer?.committed();
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

function metadataOf(row: Row): GameMetadata {
  return {
    holders: JSON.parse(row.holders as string),
    finished: row.finished === 1,
    rematch: (row.rematch_id as string | null) ?? null,
    hints: row.hints ? (JSON.parse(row.hints as string) as number[]) : [],
    ...activityOf(row),
  };
}
