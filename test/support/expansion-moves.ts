// Brute-force legal moves for the engine's tests: every cell × rotation × spot × figure,
// judged by walking the board, knowing nothing of the engine's union-find or move lists.
import type { Move } from '../../bot-engine/game.ts';
import { GameState, H_FRONTIER, cellOf, neighbour, ownerFigure, ownerPlayer } from '../../bot-engine/state.ts';
import { place } from '../../bot-engine/rules.ts';
import { DISTINCT_ROTATIONS, KIND_GARDEN, KIND_MONASTERY, MAX_SEGMENTS, ROT_EDGES, ROT_EDGE_SEG, ROT_HALF_FIELD, ROT_SPOT_NAMES, SEG_COUNT, SEG_KIND } from '../../bot-engine/tiles.ts';
import { FIGURE_ABBOT } from '../../bot-engine/feature-modifiers.ts';

/** A move as a comparable key: x, y, rotation, spot (or -), figure (or back for taking the abbot back). */
export function moveKey(m: Move): string {
  return `${m.x},${m.y},${m.rotation},${m.meeple ?? '-'},${m.meeple ? (m.figure ?? 'follower') : m.returnAbbot ? 'back' : ''}`;
}

/** The nodes of `start`'s feature, walking the board tile to tile (no union-find). */
export function walkFeature(s: GameState, start: number): number[] {
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length) {
    const n = stack.pop()!;
    const p = (n / MAX_SEGMENTS) | 0;
    const local = n % MAX_SEGMENTS;
    const tr = s.ptype[p] * 4 + s.prot[p];
    for (let d = 0; d < 4; d++) {
      const q = s.cellTile[neighbour(s.pcell[p], d)] - 1;
      if (q < 0) continue;
      const qtr = s.ptype[q] * 4 + s.prot[q];
      const across: number[] = [];
      if (ROT_EDGE_SEG[tr * 4 + d] === local) across.push(ROT_EDGE_SEG[qtr * 4 + ((d + 2) & 3)]);
      for (let h = 2 * d; h < 2 * d + 2; h++) if (ROT_HALF_FIELD[tr * 8 + h] === local) across.push(ROT_HALF_FIELD[qtr * 8 + [5, 4, 7, 6, 1, 0, 3, 2][h]]);
      for (const m of across.map((l) => q * MAX_SEGMENTS + l))
        if (!seen.has(m)) {
          seen.add(m);
          stack.push(m);
        }
    }
  }
  return [...seen];
}

/** Every legal move by brute force: each empty cell beside a tile × distinct rotation whose edges
 * match every neighbour × (no figure, or each figure in the supply on each segment it may stand on
 * whose feature, once the tile is down, held no figure before it, or taking the abbot back).
 * Land tiles only (river placements have their own brute force). Canonical spot names. */
export function bruteForceMoves(s: GameState): Set<string> {
  const out = new Set<string>();
  const type = s.currentTile;
  const trial = new GameState();
  const me = s.currentPlayer;
  const supply = [s.followers(me), s.largeFollowers(me), s.abbots(me)];
  for (let p = 0; p < s.placed; p++) {
    for (let d = 0; d < 4; d++) {
      const cell = neighbour(s.pcell[p], d);
      if (s.cellTile[cell]) continue;
      const x = s.px[p] + (d === 1 ? 1 : d === 3 ? -1 : 0);
      const y = s.py[p] + (d === 2 ? 1 : d === 0 ? -1 : 0);
      for (let r = 0; r < 4; r++) {
        if (!(DISTINCT_ROTATIONS[type] & (1 << r))) continue;
        let ok = true;
        for (let e = 0; e < 4 && ok; e++) {
          const q = s.cellTile[neighbour(cellOf(x, y), e)] - 1;
          if (q >= 0) ok = ((ROT_EDGES[s.ptype[q] * 4 + s.prot[q]] >> (((e + 2) & 3) * 2)) & 3) === ((ROT_EDGES[type * 4 + r] >> (e * 2)) & 3);
        }
        if (!ok) continue;
        out.add(`${x},${y},${r * 90},-,`);
        trial.copyFrom(s);
        const fi = [...Array(trial.h[H_FRONTIER]).keys()].find((i) => trial.fx[i] === x && trial.fy[i] === y)!;
        place(trial, fi, r, -1);
        for (let i = 0; i < SEG_COUNT[type]; i++) {
          const occupied = walkFeature(trial, s.placed * MAX_SEGMENTS + i).some((node) => node < s.placed * MAX_SEGMENTS && s.owner[node] >= 0);
          if (occupied) continue;
          const garden = SEG_KIND[type * MAX_SEGMENTS + i] === KIND_GARDEN;
          const name = ROT_SPOT_NAMES[type * 4 + r][i];
          const cloister = garden || SEG_KIND[type * MAX_SEGMENTS + i] === KIND_MONASTERY;
          if (supply[0] > 0 && !garden) out.add(`${x},${y},${r * 90},${name},follower`);
          if (supply[1] > 0 && !garden) out.add(`${x},${y},${r * 90},${name},large`);
          if (supply[2] > 0 && cloister) out.add(`${x},${y},${r * 90},${name},abbot`);
        }
        // Taking the abbot back: it stands on the board, and this tile leaves its monastery or
        // garden short of a neighbour (counted on the board: the 8 cells around it).
        const abbot = [...Array(s.placed * MAX_SEGMENTS).keys()].find((n) => s.owner[n] >= 0 && ownerPlayer(s.owner[n]) === me && ownerFigure(s.owner[n]) === FIGURE_ABBOT);
        if (abbot !== undefined) {
          const q = (abbot / MAX_SEGMENTS) | 0;
          let around = 0;
          for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && trial.cellTile[cellOf(trial.px[q] + dx, trial.py[q] + dy)]) around++;
          if (around < 8) out.add(`${x},${y},${r * 90},-,back`);
        }
      }
    }
  }
  return out;
}
