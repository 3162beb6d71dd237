// Player names: what a name may be, and the key that makes two names the same player's. The key
// folds compatibility forms (NFKC: full-width letters), Unicode confusables (the `confusables`
// library's table: Cyrillic "а" is Latin "a") and case, so "Alice", "ＡＬＩＣＥ" and "Аlice" are one name.

import { randomInt } from 'node:crypto';
import { remove as removeConfusables } from 'confusables';
import { CodedError } from '../errors.ts';
import { MAX_NAME_LENGTH } from '../wire/limits.ts';

/** The name a deleted player's seats show from then on. */
export const DELETED_NAME = 'deleted player';

// Letters, marks and digits, inner spaces and a little punctuation; starts with a letter or digit.
const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} _.'-]*$/u;
// Bots are rated players named "<Level> bot" (and deleted players' seats show DELETED_NAME): no
// person may take a name that reads as one of those.
const RESERVED_KEY = /(^|\s)bot$|^deleted player$/;
// A guest's default name ("Guest" and digits) holds no key: any number of guests may share one,
// so they never run out, and nobody may choose one (it would pass for another's default).
const GUEST_KEY = /^guest \d+$/;

/** A new guest's name until they choose one: "Guest" and six digits, not unique. */
export function guestName(): string {
  return `Guest ${randomInt(100_000, 1_000_000)}`;
}

/** The key a name holds, unique among players; null for a guest's default name, which holds none. */
export function heldKey(name: string): string | null {
  const key = nameKey(name);
  return GUEST_KEY.test(key) ? null : key;
}

/** The key under which a name is unique. */
export function nameKey(name: string): string {
  return removeConfusables(name.normalize('NFKC')).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The name as it will be stored, or `name_invalid` saying why not. */
export function validName(raw: string): string {
  const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (name.length === 0 || [...name].length > MAX_NAME_LENGTH) throw new CodedError('name_invalid', `a name has 1 to ${MAX_NAME_LENGTH} characters`);
  if (!NAME_PATTERN.test(name)) throw new CodedError('name_invalid', "a name starts with a letter or digit and holds only letters, digits, spaces and _ . ' -");
  if (RESERVED_KEY.test(nameKey(name))) throw new CodedError('name_invalid', 'names ending in "bot", and "deleted player", are reserved');
  if (heldKey(name) === null) throw new CodedError('name_invalid', 'names of the form "Guest" and digits are guests\' default names: choose another');
  return name;
}

export class NameTakenError extends CodedError {
  override name = 'NameTakenError';
  constructor() {
    super('name_taken', 'another player has this name (or one that looks the same): choose another');
  }
}
