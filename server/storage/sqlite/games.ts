// The default store: an embedded SQLite file (node:sqlite, WAL) under the data directory.
// Each call is one transaction, committed before its promise settles, so an accepted move is on
// disk before anyone is told of it. WAL with synchronous=NORMAL survives a killed process; FULL
// (the `durability: 'full'` option) also survives power loss, at an fsync per move. In the
// server two threads of the store's own keep SQLite's work off the event loop: one appends the
// moves (writer.ts), one copies the WAL back into the file (wal-checkpointer.ts); a
// one-shot command leaves both to this connection.

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { RecordMove } from '../../../bot-engine/record.ts';
import {
  createdAtMs,
  type DocumentKind,
  type DueTurn,
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
  type StoreMaintenance,
  type StoredGame,
} from '../../games/store.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';
import { type AppendStatements, appendMoves, appendStatements, connectionPragmas, writeFailure } from './moves.ts';
import { SqliteWriter } from './writer.ts';
import { validNice, WORKER_NICE } from '../../thread-priority.ts';
import { SQLITE_ACCOUNTS_MIGRATION, sqlitePlayersSweepMigration, sqliteNameKeysMigration } from '../../players/schema.ts';
import { SQLITE_PUSH_MIGRATION } from '../../push/schema.ts';
import { SQLITE_RATINGS_MIGRATION, SQLITE_TURN_RATINGS_MIGRATION, sqliteRatingOpponentsMigration, sqliteRatingsSeqMigration } from '../../ratings/schema.ts';
import { activityOf, columnValue, DOCUMENT_TABLES, decodeCursor, dueTurnOf, encodeCursor, marksOf, METADATA_COLUMNS, ownSetup, paceColumns, parseRow, parseRows } from '../sql/rows.ts';
import { StoreOpenError } from '../errors.ts';
import { gamesOfPlayer, sqliteGamePlayersMigration, sqliteKeptSeatsMigration } from './game-players.ts';
import { keptPlayerIds, refuseDeletedKept } from '../../games/seats.ts';

export interface SqliteStoreOptions {
  /** Database file path, or ':memory:'. */
  path: string;
  durability?: 'normal' | 'full';
  /** Who copies the WAL back into the file: SQLite inside the commit that fills it ('inline', the
   * default: a one-shot command or a test commits too little to stall), or a thread of the
   * store's own ('thread': the server turns it on, its commits then never stall the event loop). */
  walCheckpoints?: 'thread' | 'inline';
  /** Who appends the moves: this connection ('inline', the default), or a thread with a
   * connection of its own ('thread': the server's; a file only, ':memory:' is one connection's). */
  moveWrites?: 'thread' | 'inline';
  /** The writer's and the checkpoint thread's OS nice value (default WORKER_NICE), above the
   * event loop's. */
  threadNice?: number;
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
export const MIGRATIONS: (string | ((db: DatabaseSync) => void))[] = [
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
  sqlitePlayersSweepMigration,
  sqliteNameKeysMigration,
  sqliteRatingsSeqMigration,
  sqliteRatingOpponentsMigration,
  // Web Push: the VAPID keys, the players' devices, the notifications claimed (server/push/).
  SQLITE_PUSH_MIGRATION,
  // Turn-based games (server/games/deadlines.ts): their pace, the time per move when deadlines
  // apply, and the deadline itself, computed from the last activity (a move's own write moves it).
  // Rows stored before are live.
  sqlitePaceMigration,
  SQLITE_TURN_RATINGS_MIGRATION,
  // Which player is in which game (game-players.ts): a player's games without a scan.
  sqliteGamePlayersMigration,
  // A deleted player's kept seats are released by writing the setup again: the index follows.
  sqliteKeptSeatsMigration,
];

type Row = Record<string, unknown>;

/** Turn-based games' columns; a step run again (a database put back to an earlier version) adds
 * only what is missing. */
function sqlitePaceMigration(db: DatabaseSync): void {
  const has = new Set((db.prepare('PRAGMA table_xinfo(games)').all() as Row[]).map((c) => c.name));
  const add = (name: string, definition: string) => !has.has(name) && db.exec(`ALTER TABLE games ADD COLUMN ${name} ${definition}`);
  add('pace', "TEXT NOT NULL DEFAULT 'live'");
  add('move_ms', 'INTEGER');
  add('deadline_marks', 'TEXT');
  add('deadline_at', 'INTEGER GENERATED ALWAYS AS (last_activity_at + move_ms) VIRTUAL');
  db.exec('CREATE INDEX IF NOT EXISTS games_deadlines ON games (deadline_at) WHERE finished = 0 AND move_ms IS NOT NULL');
  db.exec('CREATE INDEX IF NOT EXISTS games_unfinished_pace ON games (pace) WHERE finished = 0');
}

export class SqliteStore implements GameStore, StoreMaintenance {
  private readonly db: DatabaseSync;
  private readonly statements;
  private readonly checkpointer: WalCheckpointer | null = null;
  private readonly statementsBySql = new Map<string, StatementSync>();
  private readonly append: AppendStatements;
  private readonly writer: SqliteWriter | null = null;
  /** Writes waiting for their turn (see exclusive()), in the order they were asked for. */
  private readonly turns: { onThread: boolean; start: () => void }[] = [];

  constructor(options: SqliteStoreOptions) {
    const threadNice = validNice(options.threadNice ?? WORKER_NICE, 'threadNice');
    try {
      if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
      this.db = new DatabaseSync(options.path);
      this.db.exec(connectionPragmas(options.durability));
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
        threadNice,
        (reason) => {
          log?.warn({ err: reason }, 'the WAL checkpoint thread cannot run: SQLite checkpoints inside commits instead');
          if (this.db.isOpen) this.db.exec('PRAGMA wal_autocheckpoint = 1000');
        },
        (reason) => log?.warn({ err: reason }, 'a WAL checkpoint failed: tried again after more commits'),
      );
    }
    const db = this.db;
    this.statements = {
      insertGame: db.prepare('INSERT INTO games (id, created_at, setup, holders, last_activity_at, last_person_at, pace, move_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      setName: db.prepare('INSERT OR REPLACE INTO seat_names (game_id, seat, name) VALUES (?, ?, ?)'),
      deletedPlayers: db.prepare('SELECT id FROM players WHERE deleted_at IS NOT NULL AND id IN (SELECT value FROM json_each(?))'),
      game: db.prepare('SELECT * FROM games WHERE id = ?'),
      metadata: db.prepare('SELECT id, holders, finished, rematch_id, hints, last_activity_at, last_person_at, deadline_marks FROM games WHERE id = ?'),
      dueTurns: db.prepare(
        "SELECT id, deadline_at, move_ms, move_count, deadline_marks FROM games INDEXED BY games_deadlines WHERE finished = 0 AND move_ms IS NOT NULL AND deadline_at <= ? AND NOT EXISTS (SELECT 1 FROM json_each(holders) h WHERE h.type = 'null') ORDER BY deadline_at LIMIT ?",
      ),
      moves: db.prepare('SELECT move FROM moves WHERE game_id = ? ORDER BY seq'),
      probe: db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('probed_at', ?)"),
    };
    this.append = appendStatements(db);
    if (options.path !== ':memory:' && options.moveWrites === 'thread') {
      this.writer = new SqliteWriter(
        { path: options.path, durability: options.durability ?? 'normal', checkpointsElsewhere: this.checkpointer !== null, nice: threadNice },
        (committed) => {
          this.checkpointer?.committed(committed);
          this.takeTurns();
        },
        (reason) => options.log?.warn({ err: reason }, 'the SQLite writer thread stopped: moves are written on the event loop instead'),
      );
    }
  }

  private migrate(): void {
    this.db.exec(SCHEMA);
    const version = Number((this.db.prepare('PRAGMA user_version').get() as Row).user_version);
    for (let v = version; v < MIGRATIONS.length; v++) {
      this.transaction(() => {
        const step = MIGRATIONS[v];
        if (typeof step === 'string') this.db.exec(step);
        else step(this.db);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
      });
    }
  }

  async create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    await this.exclusive(() => {
      const kept = keptPlayerIds(setup);
      if (kept.length > 0) {
        const deleted = this.statements.deletedPlayers.all(JSON.stringify(kept)) as { id: string }[];
        refuseDeletedKept(setup, new Set(deleted.map((r) => r.id)));
      }
      const at = createdAtMs(setup);
      const { pace, moveMs } = paceColumns(setup);
      this.statements.insertGame.run(setup.id, setup.createdAt, JSON.stringify(setup), JSON.stringify(holders), at, at, pace, moveMs);
      for (const [seat, h] of holders.entries()) if (h) this.statements.setName.run(setup.id, seat, h.name);
    });
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const row = this.statements.game.get(id) as Row | undefined;
    return row && this.toGame(row);
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    const request = { gameId: id, moves, end, atMs: Date.now() };
    const writer = this.writer;
    if (writer?.running && this.turns.length === 0) return writer.append(request);
    const here = () => appendMoves(this.db, this.append, request);
    if (!writer?.running) return this.exclusive(here);
    // Behind a transaction of this connection's; written here if the thread stops meanwhile.
    return new Promise((resolve, reject) => {
      this.turns.push({ onThread: true, start: () => (writer.running ? writer.append(request).then(resolve, reject) : settle(() => this.transaction(here), resolve, reject)) });
    });
  }

  async update(id: string, change: MetadataChange): Promise<void> {
    await this.exclusive(() => {
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
    const { sql, params } = listSql(query, limit);
    const rows = this.prepared(sql).all(...params) as Row[];
    const shown = rows.slice(0, limit);
    const games = await parseRows(shown, (row) => (query.withMoves ? { ...this.toListed(row), moves: this.movesOf(row.id as string) } : this.toListed(row)));
    const last = shown[shown.length - 1];
    return { games, next: rows.length > limit && last ? encodeCursor(String(query.finished ? last.finished_at : last.created_at), last.id as string) : null };
  }

  /** How SQLite runs a listing (EXPLAIN QUERY PLAN's lines): for operators and tests. */
  planOf(query: GameQuery): string[] {
    const { sql, params } = listSql(query, pageSize(query));
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Row[]).map((r) => r.detail as string);
  }

  async dueTurns(before: number, limit: number): Promise<DueTurn[]> {
    return (this.statements.dueTurns.all(before, limit) as Row[]).map(dueTurnOf);
  }

  async putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void> {
    await this.exclusive(() => {
      this.prepared(`INSERT OR REPLACE INTO ${DOCUMENT_TABLES[kind]} (game_id, created_at, body) VALUES (?, ?, ?)`).run(id, document.createdAt, JSON.stringify(document));
    });
  }

  async getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined> {
    const row = this.prepared(`SELECT body FROM ${DOCUMENT_TABLES[kind]} WHERE game_id = ?`).get(id) as Row | undefined;
    return row && parseRow(id, () => JSON.parse(row.body as string) as GameDocument);
  }

  async probe(): Promise<void> {
    await this.exclusive(() => this.statements.probe.run(new Date().toISOString()));
  }

  async close(): Promise<void> {
    // The last turn: after every write asked for so far.
    if (this.turns.length > 0 || this.writer?.inFlight) await new Promise<void>((resolve) => this.turns.push({ onThread: false, start: resolve }));
    await this.writer?.close();
    await this.checkpointer?.close();
    if (this.db.isOpen) this.db.close();
  }

  /** Transactions the writer thread committed (0 without one): fewer than its writes when it
   * commits several together. */
  get threadCommits(): number {
    return this.writer?.commits ?? 0;
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
    await this.exclusive(() => {
      for (const table of ['moves', 'seat_names', ...Object.values(DOCUMENT_TABLES)]) this.db.prepare(`DELETE FROM ${table} WHERE game_id = ?`).run(id);
      found = Number(this.db.prepare('DELETE FROM games WHERE id = ?').run(id).changes) > 0;
    });
    return found;
  }

  /** A transaction over this database for the tables kept beside the games (server/players/):
   * the same commit, rollback and error mapping, and turn, as the games' own. */
  async write<T>(fn: (db: DatabaseSync) => T): Promise<T> {
    let result: T | undefined;
    await this.exclusive(() => {
      result = fn(this.db);
    });
    return result as T;
  }

  /** A transaction on this connection, in its turn: at once when the writer thread has nothing
   * in flight, else after what it has in flight (and the thread's writes asked for later wait
   * for it). Two connections writing at once would make this one wait in SQLite's busy handler,
   * which sleeps the event loop. */
  private exclusive(fn: () => void): Promise<void> {
    if (this.turns.length === 0 && !this.writer?.inFlight) return Promise.resolve(this.transaction(fn));
    return new Promise((resolve, reject) => {
      this.turns.push({ onThread: false, start: () => settle(() => this.transaction(fn), resolve, reject) });
    });
  }

  /** Starts the writes whose turn it is: the thread's at once, this connection's once the
   * thread has nothing in flight. */
  private takeTurns(): void {
    while (this.turns.length > 0) {
      const next = this.turns[0];
      if (!next.onThread && this.writer?.inFlight) return;
      this.turns.shift();
      next.start();
    }
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
      throw writeFailure(e as NodeJS.ErrnoException);
    }
    this.checkpointer?.committed();
  }
}

/** A listing's SQL and its parameters (`limit` + 1 rows: one more tells there is a next page). */
function listSql(query: GameQuery, limit: number): { sql: string; params: (string | number)[] } {
  const at = query.finished ? 'g.finished_at' : 'g.created_at';
  const where = [query.finished ? 'g.finished = 1' : 'g.finished = 0'];
  const params: (string | number)[] = [];
  if (query.open) where.push(parsed("json_extract(g.setup, '$.listed') = 1 AND EXISTS (SELECT 1 FROM json_each(g.holders) h WHERE h.type = 'null')"));
  if (query.publicOnly) where.push(parsed("(json_extract(g.setup, '$.listed') = 1 OR json_extract(g.setup, '$.rated') = 1)"));
  if (query.player) {
    where.push('EXISTS (SELECT 1 FROM seat_names n WHERE n.game_id = g.id AND n.name = ?)');
    params.push(query.player);
  }
  if (query.pace) {
    where.push('g.pace = ?');
    params.push(query.pace);
  }
  // A player's games are read from their index rows first (game-players.ts), then looked up.
  let from = 'games g';
  if (query.playerId) {
    from = `(${gamesOfPlayer(query.invited === true)}) p CROSS JOIN games g ON g.id = p.game_id`;
    params.unshift(query.playerId);
  }
  if (query.before) {
    const [key, id] = decodeCursor(query.before);
    where.push(`(${at} < ? OR (${at} = ? AND g.id < ?))`);
    params.push(key, key, id);
  }
  return { sql: `SELECT g.* FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${at} DESC, g.id DESC LIMIT ?`, params: [...params, limit + 1] };
}

/** A condition on a row's JSON, false for a row whose setup or holders do not parse: a damaged
 * game is never listed (it is set aside where it is reached), and SQLite's JSON functions would
 * fail the whole query on it. CASE, not AND: only CASE is sure to evaluate lazily. */
function parsed(condition: string): string {
  return `(CASE WHEN json_valid(g.setup) AND json_valid(g.holders) THEN ${condition} ELSE 0 END)`;
}

/** Runs a synchronous write and settles its caller's promise with the outcome. */
function settle(write: () => void, resolve: () => void, reject: (e: unknown) => void): void {
  try {
    write();
    resolve();
  } catch (e) {
    reject(e);
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
    ...marksOf(row),
  };
}
