// The player tables' constraints a request can meet, each as its catalogue refusal: a client's
// fault, never a storage failure. Both stores (SQLite, PostgreSQL) report a broken constraint as
// the same ConstraintError (server/games/store.ts), so one table maps them. The other keys (ids,
// session hashes, challenges) are random, and players are never deleted (a deleted one keeps its
// row): a request cannot meet them, and one that did would be a bug (`internal`).

import { CodedError } from '../errors.ts';
import { ConstraintError } from '../storage/errors.ts';
import { NameTakenError } from './names.ts';

/** Every passkey answer that does not go through gets this one answer, so a reply never tells
 * whether a credential exists. */
export const passkeyRefused = (): CodedError => new CodedError('passkey_refused', 'the passkey could not be verified: nothing changed');

/** Unique keys a request can meet, by `table.column`. */
const UNIQUE_REFUSALS: Record<string, () => CodedError> = {
  // A name whose folded key another player holds (SQLite checks first; PostgreSQL's key settles a race).
  'players.name_key': () => new NameTakenError(),
  // A credential registered already: to the same player, or (a copied id) to another.
  'passkeys.id': passkeyRefused,
};

/** The refusal a broken constraint stands for, or the error as it is. */
export function asRefusal(e: unknown): unknown {
  if (!(e instanceof ConstraintError) || e.kind !== 'unique' || e.target === null) return e;
  return UNIQUE_REFUSALS[e.target]?.() ?? e;
}
