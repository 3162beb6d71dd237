// Features across tiles, from the board alone (no DOM): which tile segments one road, city,
// field or monastery spans, whether it is complete, and which completed features a placement
// closed. Built on the engine's own tables (bot-engine/tiles.ts), so it cannot disagree with the
// rules; the client needs it to outline a follower's feature before confirming, a scoring on the
// board, and a scoring picked in the log.

import { EXPANSION_TILES } from '../../../bot-engine/expansion-tiles.ts';
import { KIND_CITY, KIND_FIELD, KIND_GARDEN, KIND_MONASTERY, KIND_ROAD, ROT_EDGE_SEG, ROT_HALF_FIELD, ROT_SPOT_LOOKUP, SEG_KIND, MAX_SEGMENTS, TILES, TYPE_NAMES } from '../../../bot-engine/tiles.ts';
import type { ScoreEvent } from '../protocol.ts';

export interface PlacedTile {
  tile: string;
  x: number;
  y: number;
  rotation: number;
}

/** Each type's segments, in the engine's type order (the base types, then the expansions'). */
const SEGMENTS = [...TILES, ...EXPANSION_TILES].map((def) => def.segments);
/** A monastery or a garden: both score the 3×3 square around their tile. */
const cloister = (kind: number) => kind === KIND_MONASTERY || kind === KIND_GARDEN;

/** One tile's piece of a feature: the tile and its local segment (engine numbering). */
export interface FeaturePart {
  x: number;
  y: number;
  tile: string;
  rotation: number;
  seg: number;
}

export type FeatureKind = 'city' | 'road' | 'field' | 'monastery';

export interface Feature {
  kind: FeatureKind;
  parts: FeaturePart[];
  /** Distinct tiles it covers (for a monastery: the tiles of its 3×3 square). */
  tiles: number;
  /** Closed (roads, cities), surrounded (monasteries); fields never are. */
  complete: boolean;
  /** Monasteries: the 3×3 square's centre. */
  centre?: { x: number; y: number };
}

const KINDS: FeatureKind[] = ['city', 'road', 'field', 'monastery'];
const STEP = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

const key = (x: number, y: number) => `${x},${y}`;

/** Board lookup by cell, with each tile's type and rotation index. */
export class BoardIndex {
  private readonly at = new Map<string, { t: number; k: number; p: PlacedTile }>();

  constructor(tiles: readonly PlacedTile[]) {
    for (const p of tiles) this.at.set(key(p.x, p.y), { t: TYPE_NAMES.indexOf(p.tile), k: ((p.rotation / 90) | 0) & 3, p });
  }

  get(x: number, y: number) {
    return this.at.get(key(x, y));
  }

  /** The local segment a spot name ("city:N", "field:SE", "monastery") reaches on a placed tile. */
  segmentOf(x: number, y: number, spot: string): number {
    const c = this.get(x, y);
    return c ? (ROT_SPOT_LOOKUP[c.t * 4 + c.k].get(spot) ?? -1) : -1;
  }

  /** The whole feature that local segment `seg` of the tile at (x, y) belongs to. */
  feature(x: number, y: number, seg: number): Feature | null {
    const c = this.get(x, y);
    if (!c || seg < 0 || seg >= SEGMENTS[c.t].length) return null;
    const kind = SEG_KIND[c.t * MAX_SEGMENTS + seg];
    if (cloister(kind)) return this.monastery(x, y, seg);
    const seen = new Set<string>();
    const parts: FeaturePart[] = [];
    let complete = kind !== KIND_FIELD;
    const stack: [number, number, number][] = [[x, y, seg]];
    while (stack.length) {
      const [cx, cy, s] = stack.pop()!;
      const id = `${cx},${cy},${s}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const cell = this.get(cx, cy)!;
      parts.push({ x: cx, y: cy, tile: cell.p.tile, rotation: cell.p.rotation, seg: s });
      const tr = cell.t * 4 + cell.k;
      if (kind === KIND_FIELD) {
        // Half-edges clockwise from the north edge's west half; across an edge, half h meets
        // the neighbour's half (h ^ 1) + 4.
        for (let h = 0; h < 8; h++) {
          if (ROT_HALF_FIELD[tr * 8 + h] !== s) continue;
          const e = h >> 1;
          const n = this.get(cx + STEP[e][0], cy + STEP[e][1]);
          if (!n) continue;
          const other = ROT_HALF_FIELD[(n.t * 4 + n.k) * 8 + (((h ^ 1) + 4) % 8)];
          if (other >= 0) stack.push([cx + STEP[e][0], cy + STEP[e][1], other]);
        }
      } else {
        for (let e = 0; e < 4; e++) {
          if (ROT_EDGE_SEG[tr * 4 + e] !== s) continue;
          const nx = cx + STEP[e][0];
          const ny = cy + STEP[e][1];
          const n = this.get(nx, ny);
          if (!n) {
            complete = false;
            continue;
          }
          const other = ROT_EDGE_SEG[(n.t * 4 + n.k) * 4 + ((e + 2) % 4)];
          if (other >= 0) stack.push([nx, ny, other]);
        }
      }
    }
    return { kind: KINDS[kind], parts, tiles: new Set(parts.map((p) => key(p.x, p.y))).size, complete };
  }

  private monastery(x: number, y: number, seg: number): Feature {
    const c = this.get(x, y)!;
    let tiles = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (this.get(x + dx, y + dy)) tiles++;
    return { kind: 'monastery', parts: [{ x, y, tile: c.p.tile, rotation: c.p.rotation, seg }], tiles, complete: tiles === 9, centre: { x, y } };
  }

  /** Completed cities a field touches (what a farm is paid for). */
  farmCities(f: Feature): number {
    const cities = new Set<string>();
    for (const p of f.parts) {
      const c = this.get(p.x, p.y)!;
      for (const local of SEGMENTS[c.t][p.seg].cities) {
        const city = this.feature(p.x, p.y, local);
        if (city?.complete) cities.add(featureKey(city));
      }
    }
    return cities.size;
  }

  /** The feature a follower spot names on a placed tile. */
  featureOfSpot(x: number, y: number, spot: string): Feature | null {
    return this.feature(x, y, this.segmentOf(x, y, spot));
  }

  /** Completed roads and cities through the tile at (x, y), and complete monasteries around it:
   * what a placement there may have scored. */
  completedAround(x: number, y: number): Feature[] {
    const out: Feature[] = [];
    const c = this.get(x, y);
    if (!c) return out;
    const segs = SEGMENTS[c.t];
    for (let s = 0; s < segs.length; s++) {
      if (segs[s].kind !== KIND_CITY && segs[s].kind !== KIND_ROAD) continue;
      const f = this.feature(x, y, s);
      if (f?.complete) out.push(f);
    }
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) {
        const n = this.get(x + dx, y + dy);
        if (!n) continue;
        SEGMENTS[n.t].forEach((s, seg) => {
          if (!cloister(s.kind)) return;
          const f = this.monastery(x + dx, y + dy, seg);
          if (f.complete) out.push(f);
        });
      }
    return out;
  }

  /** The feature each scoring event of a placement at (x, y) paid for, in the events' order
   * (null where none fits: farms, final scorings). Events name kind and size, not place, so a
   * completed feature of that kind and size is matched, each at most once. */
  scoredBy(x: number, y: number, events: readonly ScoreEvent[]): (Feature | null)[] {
    const candidates = this.completedAround(x, y);
    return events.map((e) => {
      if (e.phase !== 'play') return null;
      const i = candidates.findIndex((f) => f.kind === e.kind && f.tiles === e.tiles);
      return i < 0 ? null : candidates.splice(i, 1)[0];
    });
  }
}

/** A feature's identity: its first part in reading order. */
export function featureKey(f: Feature): string {
  return f.parts.map((p) => `${p.x},${p.y},${p.seg}`).sort()[0] ?? '';
}

/** The features the final scoring paid, in the events' order: each event is matched to a
 * feature held by followers of (at least) the scoring players, of its kind and size (for a farm,
 * the completed cities it supplies). Followers stay on the board after the final scoring. */
export function finalScored(board: BoardIndex, followers: readonly { player: number; x: number; y: number; spot: string }[], events: readonly ScoreEvent[]): (Feature | null)[] {
  const held = new Map<string, { f: Feature; players: Set<number> }>();
  for (const fo of followers) {
    const f = board.featureOfSpot(fo.x, fo.y, fo.spot);
    if (!f) continue;
    const k = featureKey(f);
    if (!held.has(k)) held.set(k, { f, players: new Set() });
    held.get(k)!.players.add(fo.player);
  }
  const pool = [...held.values()];
  return events.map((e) => {
    if (e.phase !== 'final') return null;
    const kind = e.kind === 'farm' ? 'field' : e.kind;
    const i = pool.findIndex(({ f, players }) => f.kind === kind && e.players.every((p) => players.has(p)) && (kind === 'field' ? board.farmCities(f) : f.tiles) === e.tiles);
    return i < 0 ? null : pool.splice(i, 1)[0].f;
  });
}

/** Centre of a feature in board cells (where its points float up). */
export function featureCentre(f: Feature): { x: number; y: number } {
  if (f.centre) return { x: f.centre.x + 0.5, y: f.centre.y + 0.5 };
  const xs = f.parts.map((p) => p.x);
  const ys = f.parts.map((p) => p.y);
  return { x: (Math.min(...xs) + Math.max(...xs) + 1) / 2, y: (Math.min(...ys) + Math.max(...ys) + 1) / 2 };
}
