// What a stored game must hold before it is replayed. The store parses its rows; this checks
// their shape, so a column that parses but holds something else (edited by hand, damaged) is
// found here, and the replay (Room.restore) finds moves that do not play.

import type { StoredGame } from './store.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a stored game cannot be a game, or null. */
export function damageOf(stored: StoredGame): string | null {
  const { setup, holders, moves, hints } = stored;
  if (!isObject(setup) || typeof setup.id !== 'string' || typeof setup.seed !== 'string' || !isObject(setup.rules) || !isObject(setup.clock)) return 'setup is not a game setup';
  if (!Array.isArray(setup.seats) || setup.seats.length < 2 || !setup.seats.every((s) => isObject(s) && (s.kind === 'person' || s.kind === 'bot'))) return 'setup.seats is not a list of seats';
  if (!Array.isArray(holders) || holders.length !== setup.seats.length) return 'holders do not match the seats';
  if (!holders.every((h) => h === null || (isObject(h) && typeof h.name === 'string' && (h.tokenHash === null || typeof h.tokenHash === 'string')))) return 'holders are not seat holders';
  if (!Array.isArray(moves) || !moves.every(isObject)) return 'moves are not moves';
  if (!Array.isArray(hints)) return 'hints are not counts';
  return null;
}
