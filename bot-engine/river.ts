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

/** A river tile's placement at the river's open end: its rotation (quarter turns clockwise), the
 * board edge the river leaves by (-1 for the lake, where it ends) and the turn it makes. */
export interface RiverPlacement {
  rotation: number;
  out: number;
  turn: RiverTurn;
}

/** The rotations of a river tile (its river runs at rotation 0, as `expansion-tiles.ts` compiles
 * them) that put a river edge on `inSide`, the board edge facing the open end, and whose turn R1
 * and R2 allow after `previous`. Symmetric duplicates (RG's two straight rotations) are kept
 * apart here; the move list keeps the first of a duplicate pair, as for land tiles. The other
 * edges' match is the usual constraint check, done by the caller. */
export function riverPlacements(river: readonly (readonly number[])[], inSide: number, previous: readonly RiverTurn[]): RiverPlacement[] {
  const out: RiverPlacement[] = [];
  for (let k = 0; k < 4; k++) {
    for (const run of river) {
      const sides = run.map((e) => (e + k) % 4);
      const at = sides.indexOf(inSide);
      if (at < 0) continue;
      if (sides.length === 1) {
        out.push({ rotation: k, out: -1, turn: 0 });
        continue;
      }
      const leave = sides[1 - at];
      const turn = riverTurn(inSide, leave);
      if (riverTurnAllowed(previous, turn)) out.push({ rotation: k, out: leave, turn });
    }
  }
  return out;
}
