// What every storage backend reports when it cannot do what it was asked, whatever the database:
// the features' contracts (games/, players/, ratings/) and the backends (sqlite/, postgres/,
// memory/) share these, so this module imports nothing of either.

import { CodedError } from '../errors.ts';

/** The database cannot be used (not a database, damaged, read-only, unreachable). */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
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

/** Which rule of the schema a write broke. */
export type ConstraintKind = 'unique' | 'foreign_key' | 'not_null' | 'check';

/** A write the database refused by a constraint of the schema (a key already stored, a row it
 * refers to missing): a request's doing (the player stores map those they can meet to their
 * catalogue code, server/players/refusals.ts) or a server bug, never a fault of the store, so
 * it counts neither against readiness nor as a write failure. Nothing of the write was kept. */
export class ConstraintError extends Error {
  override name = 'ConstraintError';
  readonly kind: ConstraintKind;
  /** `table.column` (columns joined with `,`) the constraint guards; null where the database
   * does not say (SQLite's foreign keys). */
  readonly target: string | null;
  constructor(message: string, kind: ConstraintKind, target: string | null, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.target = target;
  }
}
