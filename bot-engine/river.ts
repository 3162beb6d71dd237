// The river's no-U-turn rule (docs/RULES.md, "Placing a river tile", R1 and R2) as pure
// functions over the river's flow, so legality and tests share one definition.

/** How the river runs through a tile: 0 straight on, -1 a left turn, +1 a right turn. */
export type RiverTurn = -1 | 0 | 1;

/** The turn of a tile the river enters by `inEdge` and leaves by `outEdge` (0..3 = N,E,S,W).
 * Flowing out east after coming in from the west is straight on; out north is a left turn. */
export function riverTurn(inEdge: number, outEdge: number): RiverTurn {
  const heading = (inEdge + 2) % 4; // the direction of flow on entering
  if (outEdge === heading) return 0;
  return outEdge === (heading + 1) % 4 ? 1 : -1;
}

/** May the next river tile turn `turn`, given the turns (non-zero entries) of the river tiles
 * placed so far in order, straights included as 0? R1: not the same way as the tile just
 * before, if that one turned. R2: no three turning tiles in a row the same way. */
export function riverTurnAllowed(previous: readonly RiverTurn[], turn: RiverTurn): boolean {
  if (turn === 0) return true;
  if (previous.length > 0 && previous[previous.length - 1] === turn) return false; // R1
  const turns = previous.filter((t) => t !== 0);
  const n = turns.length;
  return !(n >= 2 && turns[n - 1] === turn && turns[n - 2] === turn); // R2
}
