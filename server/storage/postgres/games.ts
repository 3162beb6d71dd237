// The game store on PostgreSQL (the `pg` driver), for several instances sharing one database.
// Same contract as the SQLite store: each call is one transaction, committed before its promise
// settles. With an `instance` name it also keeps game ownership: every unfinished game has one
// owner, a fencing epoch and a lease expiry in its row, and every write checks owner and epoch
// in its own transaction (SELECT … FOR UPDATE), so a stale owner's write fails whole
// (OwnershipLostError) instead of forking the game. docs/OPERATIONS.md explains the topology.

import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import type { RecordMove } from '../../../bot-engine/record.ts';
import { CodedError } from '../../errors.ts';
import { rateEndPostgres } from './ratings.ts';
import { MIGRATIONS } from './migrations.ts';
import { activityOf, columnValue, DOCUMENT_TABLES, decodeCursor, dueTurnOf, encodeCursor, marksOf, METADATA_COLUMNS, ownSetup, paceColumns, parseRow, parseRows } from '../sql/rows.ts';
import { StoreOpenError } from '../errors.ts';
import {
  createdAtMs,
  type DamagedGame,
  DamagedGameError,
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
  OwnershipLostError,
  pageSize,
  type SeatHolder,
  type StoreMaintenance,
  type StoredGame,
} from '../../games/store.ts';
import { keptPlayerIds, refuseDeletedKept } from '../../games/seats.ts';
import { ConstraintError, type ConstraintKind, type StorageCause, StorageError } from '../errors.ts';
import type { LeaseStore, Ownership } from '../../cluster/lease-store.ts';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** This instance's unique name: set, games are owned and writes fenced; unset, no ownership. */
  instance?: string;
  /** How long an owner's lease lasts without renewal. */
  leaseMs?: number;
  /** Connections kept to the database. */
  poolSize?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: rows as pg returns them (jsonb columns already parsed)
type Row = Record<string, any>;
type Client = pg.PoolClient;

/** Migrations run under this advisory lock: instances starting together migrate once. */
const MIGRATION_LOCK = 7_466_123;
const DEFAULT_LEASE_MS = 10_000;

/** Server-side limits on every session, tied to the lease: an instance frozen inside a
 * transaction (SIGSTOP, a VM pause, a partition that leaves its connection open) has its session
 * ended and its row locks freed before its lease runs out, so its games can be taken over; no
 * statement waits for a lock, or runs, longer than a lease. Migrations lift them (see migrate). */
function sessionLimits(leaseMs: number): string {
  const half = Math.max(250, Math.floor(leaseMs / 2));
  return `-c idle_in_transaction_session_timeout=${half} -c lock_timeout=${half} -c statement_timeout=${Math.max(500, leaseMs)}`;
}

export class PostgresStore implements GameStore, LeaseStore, StoreMaintenance {
  readonly instance: string | null;
  readonly leaseMs: number;
  private readonly pool: pg.Pool;
  /** Games this instance owns, with the epoch it owns them at (its fencing token). */
  private readonly epochs = new Map<string, number>();
  /** Moves of each game this instance wrote, as far as it knows them committed. */
  private readonly counts = new Map<string, number>();
  /** Damaged games this instance set aside: never taken over again (no claim-and-drop loop). */
  private readonly damaged = new Set<string>();

  private constructor(pool: pg.Pool, options: PostgresStoreOptions) {
    this.pool = pool;
    this.instance = options.instance ?? null;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Connects and migrates; StoreOpenError when the database cannot be used. */
  static async connect(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      application_name: options.instance ? `tessera:${options.instance}` : 'tessera',
      options: sessionLimits(options.leaseMs ?? DEFAULT_LEASE_MS),
    });
    // An idle connection the server drops must not crash the process: the next query reconnects.
    pool.on('error', () => {});
    const store = new PostgresStore(pool, options);
    try {
      await store.migrate();
    } catch (e) {
      await pool.end().catch(() => {});
      throw new StoreOpenError(`cannot use the database ${redact(options.url)}: ${(e as Error).message}`, { cause: e });
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    client.on('error', () => {}); // a dropped connection fails the next query instead
    try {
      // A migration may wait for another instance's and run long: no session limits here (this
      // connection is closed afterwards, not returned to the pool).
      await client.query('SET lock_timeout = 0; SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0');
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query('SELECT coalesce(max(version), 0) AS v FROM schema_migrations');
      for (let v = Number(rows[0].v); v < MIGRATIONS.length; v++) {
        await client.query('BEGIN');
        try {
          const step = MIGRATIONS[v];
          if (typeof step === 'string') await client.query(step);
          else await step(client);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v + 1]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      client.release(true);
    }
  }

  async create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    await this.transaction(async (c) => {
      const kept = keptPlayerIds(setup);
      if (kept.length > 0) {
        // FOR SHARE: a deletion of one of them waits for this commit, then finds this game too.
        const { rows } = await c.query<Row>('SELECT id, deleted_at FROM players WHERE id = ANY($1) FOR SHARE', [kept]);
        const deleted = new Set(rows.filter((r) => r.deleted_at !== null).map((r) => r.id as string));
        refusing(() => refuseDeletedKept(setup, deleted));
      }
      await c.query(
        `INSERT INTO games (id, created_at, setup, holders, listed, owner, owner_epoch, lease_until, last_activity_at, last_person_at, pace, move_ms)
         VALUES ($1, $2, $3, $4, $5, $6, 1, CASE WHEN $6::text IS NULL THEN NULL ELSE now() + $7::integer * interval '1 millisecond' END, $8, $8, $9, $10)`,
        [
          setup.id,
          setup.createdAt,
          JSON.stringify(setup),
          JSON.stringify(holders),
          setup.listed === true,
          this.instance,
          this.leaseMs,
          createdAtMs(setup),
          paceColumns(setup).pace,
          paceColumns(setup).moveMs,
        ],
      );
      for (const [seat, h] of holders.entries()) if (h) await c.query('INSERT INTO seat_names (game_id, seat, name) VALUES ($1, $2, $3)', [setup.id, seat, h.name]);
    });
    if (this.instance) this.epochs.set(setup.id, 1);
    this.counts.set(setup.id, 0);
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    let stored = 0;
    await this.transaction(async (c) => {
      const start = Number((await this.lockOwned(c, id)).move_count);
      stored = start + moves.length;
      if (await this.landedBefore(c, id, start, moves)) {
        stored = start;
        return;
      }
      if (moves.length > 0) {
        const values = moves.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3})`).join(', ');
        await c.query(`INSERT INTO moves (game_id, seq, move) VALUES ${values}`, [id, ...moves.flatMap((m, i) => [start + i, JSON.stringify(m)])]);
      }
      if (end) {
        const at = new Date().toISOString();
        await c.query(
          'UPDATE games SET move_count = move_count + $2, finished = true, finished_at = $3, abandoned = $4, final_scores = $5, lease_until = NULL, last_activity_at = coalesce($6, last_activity_at) WHERE id = $1',
          [id, moves.length, at, end.abandoned, JSON.stringify(end.scores), moves.length > 0 ? Date.now() : null],
        );
        if (end.rated) await rateEndPostgres(c, id, end.rated, at);
      } else await c.query('UPDATE games SET move_count = move_count + $2, last_activity_at = coalesce($3, last_activity_at) WHERE id = $1', [id, moves.length, moves.length > 0 ? Date.now() : null]);
    });
    this.counts.set(id, stored);
    if (end) {
      this.epochs.delete(id);
      this.counts.delete(id);
    }
  }

  /** A COMMIT whose answer was lost (the connection dropped) may have landed: the record is
   * then longer than this instance knows. The same moves again are that write (done, nothing
   * to add); anything else would fork the record, so the game must be reloaded from the store. */
  private async landedBefore(c: Client, id: string, start: number, moves: RecordMove[]): Promise<boolean> {
    const known = this.counts.get(id);
    if (known === undefined || known === start) return false;
    const { rows } = await c.query('SELECT move FROM moves WHERE game_id = $1 AND seq >= $2 ORDER BY seq', [id, known]);
    if (rows.length === moves.length && rows.every((r, i) => isDeepStrictEqual(r.move, moves[i]))) return true;
    this.release(id);
    throw new OwnershipLostError(`game ${id} has ${start} moves stored, this instance knew of ${known}: a write it could not confirm landed; the game is reloaded`);
  }

  async update(id: string, change: MetadataChange): Promise<void> {
    await this.transaction(async (c) => {
      const row = await this.lockOwned(c, id, !change.advisory);
      const patch = refusing(() => change.apply(parseRow(id, () => metadataOf(row))));
      const set = patch ? (Object.keys(patch) as (keyof MetadataPatch)[]) : [];
      if (!patch || set.length === 0) return;
      await c.query(`UPDATE games SET ${set.map((k, i) => `${METADATA_COLUMNS[k]} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...set.map((k) => columnValue(patch, k))]);
      if (patch.holders)
        for (const [seat, h] of patch.holders.entries())
          if (h) await c.query('INSERT INTO seat_names (game_id, seat, name) VALUES ($1, $2, $3) ON CONFLICT (game_id, seat) DO UPDATE SET name = EXCLUDED.name', [id, seat, h.name]);
    });
  }

  async putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void> {
    await this.transaction(async (c) => {
      await this.lockOwned(c, id);
      await c.query(`INSERT INTO ${DOCUMENT_TABLES[kind]} (game_id, created_at, body) VALUES ($1, $2, $3) ON CONFLICT (game_id) DO UPDATE SET created_at = EXCLUDED.created_at, body = EXCLUDED.body`, [
        id,
        document.createdAt,
        JSON.stringify(document),
      ]);
    });
  }

  async getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined> {
    const { rows } = await this.read(`SELECT body FROM ${DOCUMENT_TABLES[kind]} WHERE game_id = $1`, [id]);
    return rows[0]?.body as GameDocument | undefined;
  }

  async probe(): Promise<void> {
    await this.transaction(async (c) => {
      await c.query("INSERT INTO meta (key, value) VALUES ('probed_at', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [new Date().toISOString()]);
    });
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const { rows } = await this.read('SELECT * FROM games WHERE id = $1', [id]);
    return rows[0] && this.toGame(rows[0]);
  }

  async list(query: GameQuery): Promise<GamePage> {
    const limit = pageSize(query);
    const { sql, params } = listSql(query, limit);
    const { rows } = await this.read(sql, params);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    const moves = query.withMoves ? await this.movesOf(shown.map((row) => row.id)) : undefined;
    return {
      games: await parseRows(shown, (row) => (moves ? { ...toListed(row), moves: moves.get(row.id) ?? [] } : toListed(row))),
      next: rows.length > limit && last ? encodeCursor(String(query.finished ? last.finished_at : last.created_at), last.id) : null,
    };
  }

  /** How PostgreSQL runs a listing (EXPLAIN's lines): for operators and tests. */
  async planOf(query: GameQuery): Promise<string[]> {
    const { sql, params } = listSql(query, pageSize(query));
    const { rows } = await this.read(`EXPLAIN ${sql}`, params);
    return rows.map((r) => r['QUERY PLAN'] as string);
  }

  async dueTurns(before: number, limit: number): Promise<DueTurn[]> {
    const { rows } = await this.read(
      `SELECT id, deadline_at, move_ms, move_count, deadline_marks FROM games
       WHERE NOT finished AND move_ms IS NOT NULL AND deadline_at <= $1 AND NOT (holders @> '[null]'::jsonb) ORDER BY deadline_at LIMIT $2`,
      [before, limit],
    );
    return rows.map(dueTurnOf);
  }

  /** The moves of each game, in order, in one query. */
  private async movesOf(ids: string[]): Promise<Map<string, RecordMove[]>> {
    const byGame = new Map<string, RecordMove[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return byGame;
    const { rows } = await this.read('SELECT game_id, move FROM moves WHERE game_id = ANY($1) ORDER BY game_id, seq', [ids]);
    for (const row of rows) byGame.get(row.game_id)?.push(row.move as RecordMove);
    return byGame;
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  // --- Ownership (only with an instance name) -------------------------------------------------

  /** Games this instance owns now. */
  get owned(): string[] {
    return [...this.epochs.keys()];
  }

  /** The owner of an unfinished game and whether its lease still runs; undefined: no such game. */
  async ownerOf(id: string): Promise<Ownership | undefined> {
    const { rows } = await this.read('SELECT owner, owner_epoch, finished, coalesce(lease_until > now(), false) AS live FROM games WHERE id = $1', [id]);
    return rows[0] && { owner: rows[0].owner, epoch: Number(rows[0].owner_epoch), live: rows[0].live === true, finished: rows[0].finished };
  }

  /** Owners of several games at once (the relay's check). */
  async owners(ids: string[]): Promise<Map<string, Ownership>> {
    const { rows } = await this.read('SELECT id, owner, owner_epoch, finished, coalesce(lease_until > now(), false) AS live FROM games WHERE id = ANY($1)', [ids]);
    return new Map(rows.map((r) => [r.id as string, { owner: r.owner, epoch: Number(r.owner_epoch), live: r.live === true, finished: r.finished === true }]));
  }

  /** Takes over one unfinished game if no live instance holds it (its lease ran out, or it has
   * none); undefined when another instance owns it. */
  async claim(id: string): Promise<StoredGame | undefined> {
    if (!this.instance) return this.get(id);
    // A row locked now is being written by its owner (or one frozen mid-transaction): it is not
    // free to take, and a hello must not wait for that lock.
    const { rows } = await this.read(
      `UPDATE games g SET owner = $1, owner_epoch = g.owner_epoch + 1, lease_until = now() + $2::integer * interval '1 millisecond'
       FROM (SELECT id FROM games WHERE id = $3 AND NOT finished AND (lease_until IS NULL OR lease_until < now() OR (owner = $1 AND owner_epoch = $4))
             FOR UPDATE SKIP LOCKED) free
       WHERE g.id = free.id RETURNING g.*`,
      [this.instance, this.leaseMs, id, this.epochs.get(id) ?? -1],
    );
    if (!rows[0]) return undefined;
    this.epochs.set(id, Number(rows[0].owner_epoch));
    return this.owning(await this.toGame(rows[0]));
  }

  /** Takes over up to `limit` unfinished games whose lease ran out (their owner died or lost
   * the database), each at a new epoch; returns them to be replayed. A seated turn-based game is
   * left where it is (its row): the instance a player or its deadline reaches claims it. */
  async claimExpired(limit: number): Promise<(StoredGame | DamagedGame)[]> {
    if (!this.instance || limit <= 0) return [];
    const { rows } = await this.read(
      `UPDATE games g SET owner = $1, owner_epoch = g.owner_epoch + 1, lease_until = now() + $2::integer * interval '1 millisecond'
       FROM (SELECT id FROM games WHERE NOT finished AND (lease_until IS NULL OR lease_until < now()) AND NOT (id = ANY($4))
             AND NOT (pace = 'turnBased' AND NOT (holders @> '[null]'::jsonb))
             ORDER BY lease_until NULLS FIRST LIMIT $3 FOR UPDATE SKIP LOCKED) expired
       WHERE g.id = expired.id RETURNING g.*`,
      // Games this instance holds are renewed, not taken again.
      [this.instance, this.leaseMs, limit, [...this.owned, ...this.damaged]],
    );
    for (const row of rows) this.epochs.set(row.id, Number(row.owner_epoch));
    return parseRows(rows, async (row) => this.owning(await this.toGame(row)));
  }

  /** At boot: the unfinished games whose lease names this instance are this instance's (a
   * restart under the same TESSERA_INSTANCE_ID), taken back at once at a new epoch instead of
   * waiting for the old lease to run out. Instance ids must be unique among live instances. */
  async reclaimOwn(limit: number): Promise<(StoredGame | DamagedGame)[]> {
    if (!this.instance || limit <= 0) return [];
    const { rows } = await this.read(
      `UPDATE games g SET owner_epoch = g.owner_epoch + 1, lease_until = now() + $2::integer * interval '1 millisecond'
       FROM (SELECT id FROM games WHERE owner = $1 AND NOT finished AND lease_until IS NOT NULL AND NOT (id = ANY($4))
             ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) mine
       WHERE g.id = mine.id RETURNING g.*`,
      [this.instance, this.leaseMs, limit, [...this.owned, ...this.damaged]],
    );
    for (const row of rows) this.epochs.set(row.id, Number(row.owner_epoch));
    return parseRows(rows, async (row) => this.owning(await this.toGame(row)));
  }

  /** Extends the lease of every game this instance owns; returns those it no longer owns (taken
   * over meanwhile: this instance must drop them). */
  async renew(): Promise<string[]> {
    if (!this.instance || this.epochs.size === 0) return [];
    const ids = [...this.epochs.keys()];
    const { rows } = await this.read(
      `UPDATE games SET lease_until = now() + $2::integer * interval '1 millisecond'
       WHERE id = ANY($3) AND owner = $1 AND NOT finished RETURNING id, owner_epoch`,
      [this.instance, this.leaseMs, ids],
    );
    const renewed = new Map(rows.map((r) => [r.id as string, Number(r.owner_epoch)]));
    const missing = ids.filter((id) => this.epochs.has(id) && renewed.get(id) !== this.epochs.get(id));
    if (missing.length === 0) return [];
    // A game that finished meanwhile is not lost; one owned by someone else (or a newer epoch) is.
    const { rows: now } = await this.read('SELECT id, owner, owner_epoch, finished FROM games WHERE id = ANY($1)', [missing]);
    const lost: string[] = [];
    for (const r of now) {
      if (!this.epochs.has(r.id)) continue;
      if (r.finished) this.release(r.id);
      else if (r.owner !== this.instance || Number(r.owner_epoch) !== this.epochs.get(r.id)) {
        this.release(r.id);
        lost.push(r.id);
      }
    }
    return lost;
  }

  /** A resting turn-based game left this instance's memory: its row names no owner and no lease
   * (the epoch stays: the next claim fences this instance off). Unless this instance claimed it
   * again meanwhile (a newer epoch), it is forgotten here even if the write fails: its lease then
   * runs out unrenewed. */
  async letGo(id: string): Promise<void> {
    const epoch = this.epochs.get(id);
    if (!this.instance || epoch === undefined) return;
    try {
      await this.read('UPDATE games SET owner = NULL, lease_until = NULL WHERE id = $1 AND owner = $2 AND owner_epoch = $3 AND NOT finished', [id, this.instance, epoch]);
    } finally {
      if (this.epochs.get(id) === epoch) this.release(id);
    }
  }

  /** Forgets a game this instance let go of (it will be taken over once its lease runs out). */
  release(id: string): void {
    this.epochs.delete(id);
    this.counts.delete(id);
  }

  /** A damaged game (it does not parse or replay): let go, and never taken over again here. */
  setAside(id: string): void {
    this.release(id);
    this.damaged.add(id);
  }

  /** A game just taken: its record as stored is what this instance builds on. */
  private owning(game: StoredGame): StoredGame {
    this.counts.set(game.setup.id, game.moves.length);
    return game;
  }

  /** Gives up every lease at once (a clean shutdown): others take the games over at once. */
  async releaseAll(): Promise<void> {
    if (!this.instance || this.epochs.size === 0) return;
    const ids = [...this.epochs.keys()];
    this.epochs.clear();
    await this.read('UPDATE games SET lease_until = now() WHERE id = ANY($2) AND owner = $1 AND NOT finished', [this.instance, ids]).catch(() => {});
  }

  /** The game's row, locked for this transaction; with ownership, refused unless this instance
   * owns it at the epoch it took it (the fencing check, in the same transaction as the write). */
  private async lockOwned(c: Client, id: string, fenced = true): Promise<Row> {
    const { rows } = await c.query(
      'SELECT id, holders, move_count, finished, rematch_id, hints, last_activity_at, last_person_at, deadline_marks, owner, owner_epoch FROM games WHERE id = $1 FOR UPDATE',
      [id],
    );
    const row = rows[0];
    if (!row) throw refusing(() => new Error(`no game ${id}`));
    if (fenced && this.instance && !row.finished && (row.owner !== this.instance || Number(row.owner_epoch) !== this.epochs.get(id))) {
      this.release(id);
      throw new OwnershipLostError(`game ${id} is owned by ${row.owner} (epoch ${row.owner_epoch}), not by this instance ${this.instance}`);
    }
    return row;
  }

  private async toGame(row: Row): Promise<StoredGame> {
    const { rows } = await this.read('SELECT move FROM moves WHERE game_id = $1 ORDER BY seq', [row.id]);
    const { finishedAt: _, ...listed } = toListed(row);
    return { ...listed, moves: rows.map((m) => m.move as RecordMove) };
  }

  // --- Operators' maintenance (npm run games) ---------------------------------------------------

  async ids(): Promise<string[]> {
    return (await this.read('SELECT id FROM games ORDER BY created_at, id')).rows.map((r) => r.id as string);
  }

  async raw(id: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await this.read('SELECT * FROM games WHERE id = $1', [id]);
    if (!rows[0]) return undefined;
    const moves = (await this.read('SELECT seq, move FROM moves WHERE game_id = $1 ORDER BY seq', [id])).rows;
    const analysis = (await this.read('SELECT body FROM analyses WHERE game_id = $1', [id])).rows[0];
    return { ...rows[0], moves, analysis: analysis?.body ?? null };
  }

  async remove(id: string): Promise<boolean> {
    let found = false;
    await this.transaction(async (c) => {
      for (const table of ['moves', 'seat_names', ...Object.values(DOCUMENT_TABLES)]) await c.query(`DELETE FROM ${table} WHERE game_id = $1`, [id]);
      found = ((await c.query('DELETE FROM games WHERE id = $1', [id])).rowCount ?? 0) > 0;
    });
    this.release(id);
    return found;
  }

  private async read(sql: string, params: unknown[] = []): Promise<pg.QueryResult<Row>> {
    try {
      return await this.pool.query(sql, params);
    } catch (e) {
      throw storageError(e);
    }
  }

  /** A transaction for the tables kept beside the games (server/players/): the same rollback
   * and error mapping as the games' own. Not fenced: players belong to no instance. */
  async write<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    let result: T | undefined;
    await this.transaction(async (c) => {
      try {
        result = await fn(c);
      } catch (e) {
        // A rule of the caller's (a name taken) stays what it is.
        if (e instanceof CodedError) refusals.add(e);
        throw e;
      }
    });
    return result as T;
  }

  /** One read statement for those tables. */
  query(sql: string, params: unknown[] = []): Promise<pg.QueryResult<Row>> {
    return this.read(sql, params);
  }

  /** One transaction; on any failure it is rolled back and nothing of it is kept. */
  private async transaction(fn: (c: Client) => Promise<void>): Promise<void> {
    let client: Client;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw storageError(e);
    }
    let broken: Error | undefined;
    // The server may end the session mid-transaction (its session limits, a restart): the
    // connection's error event must not crash the process; the next query fails instead.
    const dropped = (e: Error) => (broken = e);
    client.on('error', dropped);
    try {
      await client.query('BEGIN');
      await fn(client);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw storageError(e);
    } finally {
      client.off('error', dropped);
      client.release(broken);
    }
  }
}

/** A listing's SQL and its parameters (`limit` + 1 rows: one more tells there is a next page). */
function listSql(query: GameQuery, limit: number): { sql: string; params: (string | number)[] } {
  const at = query.finished ? 'g.finished_at' : 'g.created_at';
  const where = [query.finished ? 'g.finished' : 'NOT g.finished'];
  const params: (string | number)[] = [];
  if (query.open) where.push(`g.listed AND EXISTS (SELECT 1 FROM jsonb_array_elements(g.holders) h WHERE h = 'null'::jsonb)`);
  if (query.publicOnly) where.push(`(g.listed OR g.setup @> '{"rated": true}'::jsonb)`);
  if (query.player) {
    params.push(query.player);
    where.push(`EXISTS (SELECT 1 FROM seat_names n WHERE n.game_id = g.id AND lower(n.name) = lower($${params.length}))`);
  }
  if (query.pace) {
    params.push(query.pace);
    where.push(`g.pace = $${params.length}`);
  }
  if (query.playerId) {
    params.push(JSON.stringify([{ playerId: query.playerId }]));
    const held = `g.holders @> $${params.length}::jsonb`;
    if (query.invited) {
      params.push(JSON.stringify([{ player: { id: query.playerId } }]));
      where.push(`(${held} OR g.setup -> 'seats' @> $${params.length}::jsonb)`);
    } else where.push(held);
  }
  if (query.before) {
    const [key, id] = decodeCursor(query.before);
    params.push(key, id);
    where.push(`(${at}, g.id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit + 1);
  return { sql: `SELECT g.* FROM games g WHERE ${where.join(' AND ')} ORDER BY ${at} DESC, g.id DESC LIMIT $${params.length}`, params };
}

/** Errors of the caller's making (no such game, a change's own rule): never the database's. */
const refusals = new WeakSet<object>();

/** Runs `fn`; what it throws (or returns, for an error) is marked as the caller's. */
function refusing<T>(fn: () => T): T {
  try {
    const value = fn();
    if (value instanceof Error) refusals.add(value);
    return value;
  } catch (e) {
    if (typeof e === 'object' && e !== null) refusals.add(e);
    throw e;
  }
}

/** The database's own faults (unreachable, out of space, read-only) are StorageErrors; a broken
 * constraint (a key already stored) a ConstraintError; a caller's mistake (no such game, a change
 * refused, a bad value) and a lost ownership stay what they are. */
function storageError(e: unknown): Error {
  if (e instanceof OwnershipLostError || e instanceof StorageError || e instanceof DamagedGameError || (typeof e === 'object' && e !== null && refusals.has(e))) return e as Error;
  const code = (e as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('23')) return constraintError(e as pg.DatabaseError);
  if (typeof code === 'string' && /^(22|42)/.test(code)) return e as Error;
  return new StorageError(`the game store could not write: ${(e as Error).message}`, { cause: e, kind: storageCause(e) });
}

// PostgreSQL's integrity violations (class 23); the rest (restrict, exclusion) count as checks.
const CONSTRAINT_KINDS: Record<string, ConstraintKind> = { '23505': 'unique', '23503': 'foreign_key', '23001': 'foreign_key', '23502': 'not_null' };

/** The violation as both stores report it: `table.column,…` from the table and the key its detail
 * names ("Key (game_id, seq)=(…) already exists."), or the column a NOT NULL names. */
function constraintError(e: pg.DatabaseError): ConstraintError {
  const columns = e.column ?? /^Key \(([^()]+)\)=/.exec(e.detail ?? '')?.[1]?.replace(/\s+/g, '');
  const target = e.table && columns ? `${e.table}.${columns}` : null;
  return new ConstraintError(e.message, CONSTRAINT_KINDS[e.code ?? ''] ?? 'check', target, { cause: e });
}

/** What kind of database fault this is: a player is told the real cause, not "disk". */
function storageCause(e: unknown): StorageCause {
  const code = String((e as { code?: string }).code ?? '');
  // Out of disk, memory or connections on the database server.
  if (code === '53100') return 'disk';
  // Lock wait, statement or idle-in-transaction timeouts (the session limits), serialization.
  if (['55P03', '57014', '25P03', '40001', '40P01'].includes(code)) return 'database_busy';
  // A connection that failed, was refused, dropped or shut down (class 08, 57P01–57P03), or a
  // socket error before any answer.
  if (/^08|^57P0[1-3]$|^E[A-Z]+$/.test(code) || /connect|terminat|timeout/i.test((e as Error).message ?? '')) return 'database_unreachable';
  return 'database_failed';
}

/** jsonb always parses; what it holds is checked where the game is rebuilt (GameService). */
function toListed(row: Row): ListedGame {
  return parseRow(row.id, () => ownSetup(row.id, { setup: row.setup, ...metadataOf(row), end: endOf(row), finishedAt: row.finished_at ?? null }));
}

function metadataOf(row: Row): GameMetadata {
  return { holders: row.holders, finished: row.finished === true, rematch: row.rematch_id ?? null, hints: row.hints ?? [], ...activityOf(row), ...marksOf(row) };
}

function endOf(row: Row): GameEnd | null {
  if (!row.finished) return null;
  return { abandoned: row.abandoned === true, scores: row.final_scores ?? null };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
