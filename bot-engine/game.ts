// The engine's public face: games, moves in RULES.md notation, validation with clear errors.
// `playMove` applies a move in place (a bot copies states into preallocated ones instead).

import { MAX_SEGMENTS, ROT_EDGES, ROT_SPOT_LOOKUP, ROT_SPOT_NAMES, TYPE_NAMES, fits, rotationIndex } from './tiles.ts';
import { GameState, H_BY_KIND, H_FOLLOWERS, H_FRONTIER, cellOf, ownerPlayer } from './state.ts';
import { DEFAULT_RULES, type Rules, type ScoreEvent, bagEmpty, discardUnplaceable, finalScoring, freeSpots, initState, listPlacements, place, shuffledBag } from './rules.ts';

export interface Move {
  x: number;
  y: number;
  /** Degrees clockwise: 0, 90, 180 or 270. */
  rotation: number;
  /** A follower spot such as "city:N", "road:E", "field:SW", "monastery"; null for none. */
  meeple: string | null;
}

export interface NewGameOptions {
  players: number;
  rules?: Partial<Rules>;
  /** Bag seed; the same seed deals the same order on any machine. */
  seed: string;
}

/** What a move did: its scorings and the tiles that were then drawn and discarded. */
export interface MoveOutcome {
  /** The move as played, its follower spot under the name `legalPlacements` lists. */
  move: Move;
  events: ScoreEvent[];
  discarded: string[];
  finished: boolean;
}

/** Rule keys the engine plays today. */
const RULE_KEYS: readonly string[] = Object.keys(DEFAULT_RULES);
/** The expansion options of docs/RULES.md: their tiles are compiled (expansion-tiles.ts) but the
 * engine does not play them yet, so a game or record that turns one on is refused; `false` is
 * accepted and dropped, so the base game's records stay as they are. */
const EXPANSION_KEYS: readonly string[] = ['river', 'innsCathedrals', 'abbot'];

export function normalizeRules(rules: Partial<Rules> | undefined): Rules {
  for (const [key, value] of Object.entries(rules ?? {})) {
    if (RULE_KEYS.includes(key)) continue;
    if (EXPANSION_KEYS.includes(key)) {
      if (value === false) continue;
      if (value === true) throw new Error(`rules.${key}: this engine does not play that expansion yet`);
      throw new Error(`rules.${key} must be true or false`);
    }
    throw new Error(`unknown rule "${key}" (known: ${[...RULE_KEYS, ...EXPANSION_KEYS].join(', ')})`);
  }
  const r = { ...DEFAULT_RULES, ...(rules ?? {}) };
  if (typeof r.tinyCity !== 'boolean') throw new Error('rules.tinyCity must be true or false');
  if (r.farmers !== '1st' && r.farmers !== '2nd' && r.farmers !== '3rd') throw new Error('rules.farmers must be "1st", "2nd" or "3rd"');
  return { tinyCity: r.tinyCity, farmers: r.farmers };
}

/** A new dealt game: start tile down, bag shuffled from the seed, first tile drawn. */
export function newGame(options: NewGameOptions): GameState {
  const s = initState(new GameState(), options.players, normalizeRules(options.rules), shuffledBag(options.seed));
  discardUnplaceable(s);
  return s;
}

export function tileName(type: number): string {
  return TYPE_NAMES[type];
}

const scratch = new Int32Array(4 * 160);

/** Where the current tile may go: each (x, y, rotation) with the follower spots open there. */
export function legalPlacements(s: GameState): { x: number; y: number; rotation: number; meeples: string[] }[] {
  const type = s.currentTile;
  if (type < 0 || s.finished) return [];
  const n = listPlacements(s, type, scratch);
  const out = [];
  const hasFollower = s.h[H_FOLLOWERS + s.currentPlayer] > 0;
  for (let i = 0; i < n; i++) {
    const fi = scratch[i] >> 2;
    const r = scratch[i] & 3;
    const spots = hasFollower ? freeSpots(s, type, r, s.fcell[fi]) : 0;
    const names = ROT_SPOT_NAMES[type * 4 + r].filter((_, local) => spots & (1 << local));
    out.push({ x: s.fx[fi], y: s.fy[fi], rotation: r * 90, meeples: names });
  }
  return out;
}

/** Every legal move: each placement with no follower and with each open spot. */
export function legalMoves(s: GameState): Move[] {
  return legalPlacements(s).flatMap(({ x, y, rotation, meeples }) => [null, ...meeples].map((meeple) => ({ x, y, rotation, meeple })));
}

export interface ResolvedMove {
  fi: number;
  r: number;
  spot: number;
}

/** Checks a move against the state; returns where it goes or what is wrong with it. */
export function resolveMove(s: GameState, move: Move): ResolvedMove | { error: string } {
  if (s.finished || bagEmpty(s)) return { error: 'the game is over' };
  const type = s.currentTile;
  const tile = TYPE_NAMES[type];
  if (!move || typeof move !== 'object') return { error: 'a move is an object {x, y, rotation, meeple}' };
  const { x, y, rotation, meeple } = move;
  if (!Number.isInteger(x) || !Number.isInteger(y)) return { error: 'x and y must be integers' };
  const r = rotationIndex(rotation);
  if (r < 0) return { error: `rotation must be 0, 90, 180 or 270, got ${JSON.stringify(rotation)}` };
  let fi = -1;
  for (let i = 0; i < s.h[H_FRONTIER]; i++) if (s.fx[i] === x && s.fy[i] === y) fi = i;
  if (fi < 0) {
    return { error: isTileAt(s, x, y) ? `(${x},${y}) already holds a tile` : `(${x},${y}) does not touch any tile` };
  }
  const tr = type * 4 + r;
  if (!fits(ROT_EDGES[tr], s.cellCode[s.fcell[fi]])) return { error: `tile ${tile} at rotation ${rotation} does not match its neighbours at (${x},${y})` };
  if (meeple === null || meeple === undefined) return { fi, r, spot: -1 };
  if (typeof meeple !== 'string') return { error: 'meeple must be a spot name or null' };
  const spot = ROT_SPOT_LOOKUP[tr].get(meeple);
  if (spot === undefined) return { error: `tile ${tile} at rotation ${rotation} has no follower spot "${meeple}"` };
  if (s.h[H_FOLLOWERS + s.currentPlayer] <= 0) return { error: 'no follower left in the supply' };
  if (!(freeSpots(s, type, r, s.fcell[fi]) & (1 << spot))) return { error: `the feature at "${meeple}" already has a follower on it` };
  return { fi, r, spot };
}

function isTileAt(s: GameState, x: number, y: number): boolean {
  const p = s.cellTile[cellOf(x, y)] - 1;
  return p >= 0 && s.px[p] === x && s.py[p] === y;
}

/** Plays a move in place. With `dealt`, then discards unplaceable draws and, once the bag is
 * empty, runs final scoring. Returns the error, leaving the state untouched, if illegal. */
export function playMove(s: GameState, move: Move, dealt = true): MoveOutcome | { error: string } {
  const resolved = resolveMove(s, move);
  if ('error' in resolved) return resolved;
  const played = resolvedToMove(s, resolved);
  const events: ScoreEvent[] = [];
  place(s, resolved.fi, resolved.r, resolved.spot, events);
  const discarded: number[] = [];
  if (dealt) {
    discardUnplaceable(s, discarded);
    if (bagEmpty(s)) finalScoring(s, events);
  }
  return { move: played, events, discarded: discarded.map(tileName), finished: s.finished };
}

export interface Follower {
  player: number;
  x: number;
  y: number;
  spot: string;
}

/** Followers standing on the board, with the spot named in board orientation. */
export function followersOnBoard(s: GameState): Follower[] {
  const out: Follower[] = [];
  for (let p = 0; p < s.placed; p++) {
    const spot = s.pspot[p];
    if (spot < 0 || s.owner[p * MAX_SEGMENTS + spot] < 0) continue;
    out.push({ player: ownerPlayer(s.owner[p * MAX_SEGMENTS + spot]), x: s.px[p], y: s.py[p], spot: ROT_SPOT_NAMES[s.ptype[p] * 4 + s.prot[p]][spot] });
  }
  return out;
}

/** A player's score split by the kind of feature that paid it. */
export interface Points {
  city: number;
  road: number;
  monastery: number;
  farm: number;
}

export function pointsByKind(s: GameState, player: number): Points {
  const at = H_BY_KIND + player * 4; // kinds in tiles.ts order: city, road, field, monastery
  return { city: s.h[at], road: s.h[at + 1], farm: s.h[at + 2], monastery: s.h[at + 3] };
}

export interface BoardTile {
  tile: string;
  x: number;
  y: number;
  rotation: number;
}

/** The tiles on the board in the order they were placed, from the `from`-th on. */
export function boardTiles(s: GameState, from = 0): BoardTile[] {
  const out: BoardTile[] = [];
  for (let p = from; p < s.placed; p++) out.push({ tile: TYPE_NAMES[s.ptype[p]], x: s.px[p], y: s.py[p], rotation: s.prot[p] * 90 });
  return out;
}

/** The protocol form of an engine-level move (frontier slot, rotation index, local spot). */
export function resolvedToMove(s: GameState, m: ResolvedMove): Move {
  const type = s.currentTile;
  const tr = type * 4 + m.r;
  return { x: s.fx[m.fi], y: s.fy[m.fi], rotation: m.r * 90, meeple: m.spot >= 0 ? ROT_SPOT_NAMES[tr][m.spot] : null };
}
