// The write every move makes, in SQLite: a game's moves appended (and its end, and a rated end's
// ratings) inside the caller's transaction. Run by the store's own connection, or by its writer
// thread's (writer-thread.ts): one code for both.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RecordMove } from '../../../bot-engine/record.ts';
import { rateEndSqlite } from './ratings.ts';
import type { GameEnd } from '../../games/store.ts';
import { ConstraintError, type ConstraintKind, StorageError } from '../errors.ts';

/** The store cannot write (`why`: SQLite's message, or why its writer thread stopped). */
export const unwritable = (why: string, cause?: unknown) => new StorageError(`the game store could not write: ${why}`, { cause });

/** What node:sqlite's errors carry: SQLite's extended result code in `errcode`. */
export type SqliteFailure = Error & { code?: string; errcode?: number };

/** A failed write as the store's caller sees it: a broken constraint as ConstraintError (the
 * request's doing or a bug, not the store's), SQLite's own failure (the disk, the file) as
 * StorageError, anything else (a game that does not exist) as it is. */
export function writeFailure(e: SqliteFailure): Error {
  if (e.code !== 'ERR_SQLITE_ERROR') return e;
  const kind = constraintKind(e.errcode);
  return kind ? new ConstraintError(e.message, kind, constraintTarget(e.message), { cause: e }) : unwritable(e.message, e);
}

// The extended codes of SQLITE_CONSTRAINT the schema's own rules raise (https://sqlite.org/rescode.html):
// CHECK, FOREIGNKEY, NOTNULL, PRIMARYKEY, UNIQUE, DATATYPE (a STRICT column's type). The schema has
// no triggers: a trigger's RAISE is none of its rules and stays a store fault.
const CONSTRAINT_KINDS: Record<number, ConstraintKind> = { 275: 'check', 787: 'foreign_key', 1299: 'not_null', 1555: 'unique', 2067: 'unique', 3091: 'check' };

function constraintKind(errcode: number | undefined): ConstraintKind | null {
  return errcode === undefined ? null : (CONSTRAINT_KINDS[errcode] ?? null);
}

/** "UNIQUE constraint failed: moves.game_id, moves.seq" → "moves.game_id,seq"; SQLite names no
 * column for a foreign key. */
function constraintTarget(message: string): string | null {
  const columns = /constraint failed: (\w+)\.(\w+(?:, \w+\.\w+)*)$/.exec(message);
  if (!columns) return null;
  return `${columns[1]}.${columns[2].replace(/ ?\w+\./g, '')}`;
}

/** The settings every connection to the games' file takes (each connection has its own). */
export const connectionPragmas = (durability: 'normal' | 'full' = 'normal') =>
  `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 2000;`;

export interface AppendStatements {
  advance: StatementSync;
  insertMove: StatementSync;
  end: StatementSync;
}

export function appendStatements(db: DatabaseSync): AppendStatements {
  return {
    // The new count says where the moves go: no read of the row before the write.
    advance: db.prepare('UPDATE games SET move_count = move_count + ?, last_activity_at = coalesce(?, last_activity_at) WHERE id = ? RETURNING move_count'),
    insertMove: db.prepare('INSERT INTO moves (game_id, seq, move) VALUES (?, ?, ?)'),
    end: db.prepare('UPDATE games SET finished = 1, finished_at = ?, abandoned = ?, final_scores = ? WHERE id = ?'),
  };
}

/** One game's moves (and end) asked for at `atMs`; the caller's transaction commits them. */
export interface AppendRequest {
  gameId: string;
  moves: RecordMove[];
  end: GameEnd | null;
  atMs: number;
}

export function appendMoves(db: DatabaseSync, s: AppendStatements, { gameId, moves, end, atMs }: AppendRequest): void {
  const advanced = s.advance.get(moves.length, moves.length > 0 ? atMs : null, gameId) as Record<string, unknown> | undefined;
  if (!advanced) throw new Error(`no game ${gameId}`);
  const start = Number(advanced.move_count) - moves.length;
  for (const [i, m] of moves.entries()) s.insertMove.run(gameId, start + i, JSON.stringify(m));
  if (!end) return;
  const at = new Date(atMs).toISOString();
  s.end.run(at, end.abandoned ? 1 : 0, JSON.stringify(end.scores), gameId);
  if (end.rated) rateEndSqlite(db, gameId, end.rated, at);
}
