// What the SQL stores share (SqliteStore, PostgresStore): the finished-games page cursor, the
// open failure, and turning a stored row into a game, where any failure is the game's damage.

import { DamagedGameError, type DamagedGame, type DeadlineMarks, type DocumentKind, type DueTurn, type GameSetup, type MetadataPatch, moveMsOf } from '../../games/store.ts';

/** The finished-games page cursor: the last listed game's finish time and id. */
export function encodeCursor(finishedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([finishedAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // fall through
  }
  throw new RangeError('invalid page cursor');
}

/** Builds a game from a stored row; any failure (bad JSON, a missing column) is the game's
 * damage, not the store's. */
export function parseRow<T>(id: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new DamagedGameError(id, (e as Error).message);
  }
}

/** A parsed row must hold its own game's setup (damage to it would otherwise go unnamed). */
export function ownSetup<T extends { setup: GameSetup }>(id: string, game: T): T {
  if (typeof game.setup !== 'object' || game.setup === null || game.setup.id !== id) throw new Error('the setup column does not hold this game’s setup');
  return game;
}

/** Parses each row on its own: a damaged one becomes a marker, the others are unaffected. */
export async function parseRows<R, G>(rows: R[], parse: (row: R) => Promise<G> | G): Promise<(G | DamagedGame)[]> {
  return Promise.all(
    rows.map(async (row) => {
      try {
        return await parse(row);
      } catch (e) {
        if (e instanceof DamagedGameError) return { id: e.gameId, damaged: e.reason };
        throw e;
      }
    }),
  );
}

/** The activity columns (ms since the epoch; NULL where the store did not know). */
export function activityOf(row: { last_activity_at?: unknown; last_person_at?: unknown }): Pick<MetadataPatch, 'lastActivityAt' | 'lastPersonAt'> {
  return {
    ...(row.last_activity_at == null ? {} : { lastActivityAt: Number(row.last_activity_at) }),
    ...(row.last_person_at == null ? {} : { lastPersonAt: Number(row.last_person_at) }),
  };
}

/** The column each metadata field is stored in (the same in both schemas). */
export const METADATA_COLUMNS: Record<keyof MetadataPatch, string> = {
  holders: 'holders',
  rematch: 'rematch_id',
  hints: 'hints',
  lastActivityAt: 'last_activity_at',
  lastPersonAt: 'last_person_at',
  marks: 'deadline_marks',
};

/** The pace column's value and the time per move that makes a deadline (null: none). */
export function paceColumns(setup: GameSetup): { pace: 'live' | 'turnBased'; moveMs: number | null } {
  return { pace: setup.pace ? 'turnBased' : 'live', moveMs: moveMsOf(setup) };
}

/** The deadline marks column (JSON text in SQLite, parsed already from PostgreSQL's jsonb). */
export function marksOf(row: { deadline_marks?: unknown }): { marks?: DeadlineMarks } {
  const value = row.deadline_marks;
  if (value == null) return {};
  return { marks: (typeof value === 'string' ? JSON.parse(value) : value) as DeadlineMarks };
}

/** A row of a due-turns query. */
export function dueTurnOf(row: Record<string, unknown>): DueTurn {
  return { id: String(row.id), deadline: Number(row.deadline_at), moveMs: Number(row.move_ms), turn: Number(row.move_count), marks: marksOf(row).marks ?? null };
}

/** The table each kind of document is kept in (game_id, created_at, body). */
export const DOCUMENT_TABLES: Record<DocumentKind, string> = { analysis: 'analyses' };

/** A patched metadata field as both schemas take it: JSON text for lists. */
export function columnValue(patch: MetadataPatch, key: keyof MetadataPatch): string | number | null {
  const value = patch[key];
  if (value === undefined || value === null) return null;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}
