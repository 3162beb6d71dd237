// The River (docs/RULES.md, "The River"): its no-U-turn rule (R1 and R2) as pure functions over
// the river's flow, and the expansion's hooks on a state, which judge placements with those same
// functions: legality and tests share one definition. It owns its header slots (the river's open
// end and last turns), the spring as the start tile, its tiles' placements, and the bag's river
// section.

import { DISTINCT_ROTATIONS, IS_RIVER, ROT_EDGES, ROT_RIVER, ROT_RIVER_OUT, TYPE_NAMES, fits, tileIndex } from '../tiles.ts';
import { type GameState, H_BAGLEN, H_EXPANSIONS, H_FRONTIER } from '../state.ts';
import { bagSections } from '../expansion-tiles.ts';
import type { Expansion } from './expansion.ts';
import { headerBlock } from './options.ts';

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
  const turns = previous.filter((t) => t !== 0);
  return turnAllowed(turn, previous.at(-1) ?? 0, turns.at(-1) ?? 0, turns.at(-2) ?? 0);
}

/** The rule itself, on what it needs of the river so far: the last river tile's turn (`last`, 0
 * for straight on or none) and the last two turning tiles' turns (most recent first, 0 for none).
 * R1: not the same way as the tile just before, if that one turned. R2: no three turning tiles in
 * a row the same way. */
export function turnAllowed(turn: number, last: number, turn1: number, turn2: number): boolean {
  return turn === 0 || (turn !== last && !(turn1 === turn && turn2 === turn));
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

// ---- The expansion's hooks on a state ----

// Header slots, while the river's open end is open: the open cell, the side of it the river comes
// in by (-1 once the lake closed it), the last river tile's turn (-1, 0, +1), the last two turning
// tiles' turns (most recent first, 0 for none), and where the river tiles' section of the bag ends
// (the lake RB is the slot there).
const H_RIVER = H_EXPANSIONS + headerBlock('river', 7);
const H_RIVER_X = H_RIVER;
const H_RIVER_Y = H_RIVER + 1;
const H_RIVER_IN = H_RIVER + 2;
const H_RIVER_LAST = H_RIVER + 3;
const H_RIVER_TURN1 = H_RIVER + 4;
const H_RIVER_TURN2 = H_RIVER + 5;
const H_RIVER_END = H_RIVER + 6;

const SPRING = tileIndex('RA');

/** The river's open end moves to the cell beyond board edge `exit` of the tile at (x, y). */
function openRiver(s: GameState, x: number, y: number, exit: number): void {
  s.h[H_RIVER_X] = x + (exit === 1 ? 1 : exit === 3 ? -1 : 0);
  s.h[H_RIVER_Y] = y + (exit === 2 ? 1 : exit === 0 ? -1 : 0);
  s.h[H_RIVER_IN] = (exit + 2) & 3;
}

/** Whether river tile `type` at rotation r may go on frontier slot fi: at the river's open end,
 * a river edge against the open river edge, the other edges matching, and a turn `turnAllowed`
 * allows (docs/RULES.md, "Placing a river tile"). */
export function riverPlacementOk(s: GameState, type: number, fi: number, r: number): boolean {
  const h = s.h;
  const inSide = h[H_RIVER_IN];
  if (inSide < 0 || s.fx[fi] !== h[H_RIVER_X] || s.fy[fi] !== h[H_RIVER_Y]) return false;
  const tr = type * 4 + r;
  const out = ROT_RIVER_OUT[tr * 4 + inSide];
  if (out === -2 || !fits(ROT_EDGES[tr], s.cellCode[s.fcell[fi]])) return false;
  return turnAllowed(out < 0 ? 0 : riverTurn(inSide, out), h[H_RIVER_LAST], h[H_RIVER_TURN1], h[H_RIVER_TURN2]);
}

function listRiverPlacements(s: GameState, type: number, out: Int32Array): number {
  let n = 0;
  for (let fi = 0; fi < s.h[H_FRONTIER]; fi++) {
    if (s.fx[fi] !== s.h[H_RIVER_X] || s.fy[fi] !== s.h[H_RIVER_Y]) continue;
    for (let r = 0; r < 4; r++) if (DISTINCT_ROTATIONS[type] & (1 << r) && riverPlacementOk(s, type, fi, r)) out[n++] = (fi << 2) | r;
  }
  return n;
}

/** As a river tile goes down at (x, y), rotation r: the river's new open end and turn history. */
function extendRiver(s: GameState, type: number, x: number, y: number, r: number): void {
  const h = s.h;
  const inSide = h[H_RIVER_IN];
  const out = ROT_RIVER_OUT[(type * 4 + r) * 4 + inSide];
  if (out < 0) {
    h[H_RIVER_IN] = -1; // the lake: the river is closed
    return;
  }
  const turn = riverTurn(inSide, out);
  h[H_RIVER_LAST] = turn;
  if (turn !== 0) {
    h[H_RIVER_TURN2] = h[H_RIVER_TURN1];
    h[H_RIVER_TURN1] = turn;
  }
  openRiver(s, x, y, out);
}

export const river: Expansion = {
  key: 'river',
  name: 'the River',
  startTile: SPRING,
  start(s, options) {
    openRiver(s, 0, 0, 31 - Math.clz32(ROT_RIVER[SPRING * 4]));
    s.h[H_RIVER_END] = bagSections(options).river.length;
  },
  ownTiles: IS_RIVER,
  listPlacements: listRiverPlacements,
  placementRefusal(s, type, fi, r, rotation) {
    if (riverPlacementOk(s, type, fi, r)) return null;
    return `river tile ${TYPE_NAMES[type]} at rotation ${rotation} must extend the river at its open end (${s.h[H_RIVER_X]},${s.h[H_RIVER_Y]}), river edge against river edge, without turning the same way as the turn before it (or a third time in a row)`;
  },
  placing: extendRiver,
  /** The river tiles, then the lake's one slot, then the land tiles. */
  sectionEnd(s, pos) {
    const end = s.h[H_RIVER_END];
    return pos < end ? end : pos === end ? end + 1 : s.h[H_BAGLEN];
  },
};
