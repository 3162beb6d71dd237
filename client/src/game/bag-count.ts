// How many tiles of each type are still in the bag (no DOM): the game's whole set (the start
// tile and the bag its rules deal, expansions included) less the board, the discards and the
// tile in hand.

import { dealtBag } from '../../../bot-engine/rules.ts';
import { TYPE_NAMES } from '../../../bot-engine/tiles.ts';
import type { GameView } from '../protocol.ts';

/** Tiles of each type still in the bag, every type of the game's set listed (in the engine's
 * type order), 0 when gone. */
export function tilesInBag(v: GameView, discarded: readonly string[]): Map<string, number> {
  const set = new Map<string, number>();
  const add = (n: string) => set.set(n, (set.get(n) ?? 0) + 1);
  // The start tile is always on the board: the first tile placed.
  if (v.board.length) add(v.board[0].tile);
  for (const t of dealtBag(v.rules)) add(TYPE_NAMES[t]);
  const left = new Map(TYPE_NAMES.filter((n) => set.has(n)).map((n) => [n, set.get(n)!]));
  const out = (n: string | null) => {
    if (n && left.has(n)) left.set(n, Math.max(0, left.get(n)! - 1));
  };
  for (const t of v.board) out(t.tile);
  for (const d of discarded) out(d);
  if (v.status === 'playing') out(v.tile);
  return left;
}
