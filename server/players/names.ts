// Names a person types, for a player or for a seat: what a name may be, and the key that makes two
// names the same. The key is Unicode's confusable skeleton (UTS #39, on the `unhomoglyph` package's
// copy of confusables.txt) with case folded in: "Alice", "ＡＬＩＣＥ", "Аlice" (Cyrillic А), "AIice"
// (capital i) and "A1ice" are one name.

import { randomInt } from 'node:crypto';
import unhomoglyph from 'unhomoglyph';
import { CodedError } from '../errors.ts';
import { BOT_DISPLAY_NAMES, MAX_NAME_LENGTH } from '../wire/limits.ts';

/** The name a deleted player's seats show from then on. */
export const DELETED_NAME = 'deleted player';

// Letters, marks and digits, inner spaces and a little punctuation; starts with a letter or digit.
const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} _.'-]*$/u;
// Characters that show nothing (or may show nothing) yet make a name differ: default-ignorable ones
// (U+200B–U+200F, U+2060…, variation selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
// which are letters to \p{L}), format characters, and code points with no character yet.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cn}\p{Co}\p{Cs}]/u;

/** A new guest's name until they choose one: "Guest" and six digits, not unique. */
export function guestName(): string {
  return `Guest ${randomInt(100_000, 1_000_000)}`;
}

/** UTS #39's skeleton: NFD, each character to its confusables.txt prototype, NFD again. */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/** The key under which a name is unique: names with one key may not stand side by side. */
export function nameKey(name: string): string {
  // The skeleton is case-sensitive (I is l, i is not) and case must not matter either: fold both
  // until neither changes anything, so every case of a look-alike lands on one key.
  let key = name.normalize('NFKC').replace(/\s+/g, ' ').trim();
  for (let round = 0; round < 4; round++) {
    const folded = skeleton(skeleton(key.toUpperCase()).toLowerCase());
    if (folded === key) break;
    key = folded;
  }
  return key;
}

// A guest's default name ("Guest" and digits, or a look-alike of one) holds no key: any number of
// guests may share one, so they never run out, and nobody may choose one (it would pass for
// another's default).
const GUEST_PREFIX = `${nameKey('Guest')} `;
const DIGIT_KEYS = new Set([...'0123456789'].map(nameKey));

/** The key a name holds, unique among players; null for a guest's default name, which holds none. */
export function heldKey(name: string): string | null {
  const key = nameKey(name);
  const digits = [...key.slice(GUEST_PREFIX.length)];
  return key.startsWith(GUEST_PREFIX) && digits.length > 0 && digits.every((d) => DIGIT_KEYS.has(d)) ? null : key;
}

// What a name reads as once its separators (spaces, _ . ' -) and its leading and trailing digits
// are gone: "Alice_BOT", "random bot 2" and "Deleted-Player" read as "alicebot", "randombot",
// "deletedplayer".
const readAs = (name: string): string =>
  nameKey(
    name
      .normalize('NFKC')
      .replace(/[^\p{L}\p{M}\p{N}]/gu, '')
      .replace(/^\p{N}+|\p{N}+$/gu, ''),
  );

const BOT = readAs('bot');
// Words the server or the client shows for a seat (a deleted player's; "open seat 2", "Seat 3") and
// the names the client gives bots' seats.
const SEAT_WORDS = [DELETED_NAME, 'open seat', 'seat'];
const RESERVED = new Set([...SEAT_WORDS, ...BOT_DISPLAY_NAMES].map(readAs));

/** Whether a name reads as a bot's or as one the server or the client shows for a seat. */
export function isReserved(name: string): boolean {
  const read = readAs(name);
  return read.startsWith(BOT) || read.endsWith(BOT) || RESERVED.has(read);
}

/** The name as it will be stored, or `name_invalid` saying why not. */
export function validName(raw: string): string {
  const name = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (name.length === 0 || [...name].length > MAX_NAME_LENGTH) throw new CodedError('name_invalid', `a name has 1 to ${MAX_NAME_LENGTH} characters`);
  if (INVISIBLE.test(name)) throw new CodedError('name_invalid', 'a name may not hold invisible characters (fillers, joiners, variation selectors)');
  if (!NAME_PATTERN.test(name)) throw new CodedError('name_invalid', "a name starts with a letter or digit and holds only letters, digits, spaces and _ . ' -");
  if (isReserved(name))
    throw new CodedError(
      'name_invalid',
      `names that read as a bot's ("…bot", "bot…", "random bot 2"), as a seat's ("${DELETED_NAME}", "open seat 2") or as a bot's name in the client (${BOT_DISPLAY_NAMES.join(', ')}) are reserved`,
    );
  if (heldKey(name) === null) throw new CodedError('name_invalid', 'names of the form "Guest" and digits are guests\' default names: choose another');
  return name;
}

export class NameTakenError extends CodedError {
  override name = 'NameTakenError';
  constructor() {
    super('name_taken', 'another player has this name (or one that looks the same): choose another');
  }
}

/** Every stored player's key under the current rule, for a migration that changes the rule:
 * `players` oldest first. A later name that now looks the same as an earlier one (allowed under an
 * older rule) keeps its name, under a key of its own that no typed name can have ('#' and its id). */
export function rekeyed(players: readonly { id: string; name: string }[]): Map<string, string | null> {
  const keys = new Map<string, string | null>();
  const held = new Set<string>();
  for (const { id, name } of players) {
    const key = heldKey(name);
    if (key === null) keys.set(id, null);
    else {
      keys.set(id, held.has(key) ? `${key}#${id}` : key);
      held.add(key);
    }
  }
  return keys;
}
