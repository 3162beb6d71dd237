// The engine's public face: games, moves in RULES.md notation, validation with clear errors.
// `playMove` applies a move in place (a bot copies states into preallocated ones instead).

import { MAX_SEGMENTS, ROT_EDGES, ROT_SPOT_LOOKUP, ROT_SPOT_NAMES, TYPE_NAMES, fits, rotationIndex } from './tiles.ts';
import { GameState, H_BY_KIND, H_FRONTIER, MAX_PLACEMENTS, cellOf, ownerFigure, ownerPlayer, supplySlot } from './state.ts';
import {
  DEFAULT_RULES,
  type Rules,
  type ScoreEvent,
  bagEmpty,
  dealtBag,
  discardUnplaceable,
  figureSpot,
  finalScoring,
  freeSpots,
  initState,
  listPlacements,
  mayReturnAbbot,
  openFigureSpots,
  place,
  RETURN_ABBOT,
} from './rules.ts';
import { FIGURE_EXPANSION, FIGURE_OPTION, FIGURES, TILE_RULES, TURN_ACTIONS } from './expansions/index.ts';
import { EXPANSION_KEYS, type ExpansionKey, FIGURE_FOLLOWER, FIGURE_KINDS, FIGURE_NAMES, type FigureName } from './expansions/options.ts';

export { EXPANSION_KEYS, type ExpansionKey, type FigureName };
/** The expansions' figures, named in moves and listed per placement (`large`, `abbot`). */
type ExpansionFigure = Exclude<FigureName, 'follower'>;
/** Taking the abbot back: the one turn action (a move's `returnAbbot`, a placement's `canReturnAbbot`). */
const [TAKE_ABBOT_BACK] = TURN_ACTIONS;

export interface Move {
  x: number;
  y: number;
  /** Degrees clockwise: 0, 90, 180 or 270. */
  rotation: number;
  /** A follower spot such as "city:N", "road:E", "field:SW", "monastery", "garden"; null for none. */
  meeple: string | null;
  /** The figure on `meeple`: a follower when absent; `large` with Inns & Cathedrals, `abbot` with the Abbot. */
  figure?: FigureName;
  /** With the Abbot, instead of a figure (`meeple` null): take the abbot back, scoring its monastery or garden. */
  returnAbbot?: true;
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
// The expansion options of docs/RULES.md the engine plays (EXPANSION_KEYS): `true` turns one on;
// `false` is accepted and dropped, so the base game's records stay as they are.

export function normalizeRules(rules: Partial<Rules> | undefined): Rules {
  const on: Partial<Rules> = {};
  for (const [key, value] of Object.entries(rules ?? {})) {
    if (RULE_KEYS.includes(key)) continue;
    if ((EXPANSION_KEYS as readonly string[]).includes(key)) {
      if (value === false) continue;
      if (value !== true) throw new Error(`rules.${key} must be true or false`);
      on[key as ExpansionKey] = true;
      continue;
    }
    throw new Error(`unknown rule "${key}" (known: ${[...RULE_KEYS, ...EXPANSION_KEYS].join(', ')})`);
  }
  const r = { ...DEFAULT_RULES, ...(rules ?? {}) };
  if (typeof r.tinyCity !== 'boolean') throw new Error('rules.tinyCity must be true or false');
  if (r.farmers !== '1st' && r.farmers !== '2nd' && r.farmers !== '3rd') throw new Error('rules.farmers must be "1st", "2nd" or "3rd"');
  return { tinyCity: r.tinyCity, farmers: r.farmers, ...on };
}

/** A new dealt game: start tile down, bag shuffled from the seed, first tile drawn. */
export function newGame(options: NewGameOptions): GameState {
  const rules = normalizeRules(options.rules);
  const s = initState(new GameState(), options.players, rules, dealtBag(rules, options.seed));
  discardUnplaceable(s);
  return s;
}

export function tileName(type: number): string {
  return TYPE_NAMES[type];
}

const scratch = new Int32Array(MAX_PLACEMENTS);

/** A placement of the current tile and the spots open there to each figure in the mover's
 * supply: `meeples` for a follower; with Inns & Cathedrals `large` for the large follower; with
 * the Abbot `abbot` for the abbot (both lists present only with their option on). */
export interface LegalPlacement extends Partial<Record<ExpansionFigure, string[]>> {
  x: number;
  y: number;
  rotation: number;
  meeples: string[];
  /** With the Abbot: whether the mover may take the abbot back with this placement (a move's
   * `returnAbbot`; named apart so a placement spread into a move does not carry it). */
  canReturnAbbot?: boolean;
}

const open = new Int32Array(3);

/** The names of the spots whose bit is set in `mask`: a loop, not a closure per placement (the
 * server builds these for every view of the seat on turn). */
function spotNames(spots: readonly string[], mask: number): string[] {
  const names: string[] = [];
  for (let local = 0; local < spots.length; local++) if (mask & (1 << local)) names.push(spots[local]);
  return names;
}

/** Where the current tile may go: each (x, y, rotation) with the figure spots open there. */
export function legalPlacements(s: GameState): LegalPlacement[] {
  const type = s.currentTile;
  if (type < 0 || s.finished) return [];
  const n = listPlacements(s, type, scratch);
  const out: LegalPlacement[] = [];
  const options = s.options;
  for (let i = 0; i < n; i++) {
    const fi = scratch[i] >> 2;
    const r = scratch[i] & 3;
    openFigureSpots(s, type, r, s.fcell[fi], open);
    const spots = ROT_SPOT_NAMES[type * 4 + r];
    const placement: LegalPlacement = { x: s.fx[fi], y: s.fy[fi], rotation: r * 90, meeples: spotNames(spots, open[FIGURE_FOLLOWER]) };
    for (let f = 1; f < FIGURE_KINDS; f++) if (options & FIGURE_OPTION[f]) placement[FIGURE_NAMES[f] as ExpansionFigure] = spotNames(spots, open[f]);
    if (options & TAKE_ABBOT_BACK.option) placement.canReturnAbbot = mayReturnAbbot(s, fi);
    out.push(placement);
  }
  return out;
}

/** Every legal move: each placement with no figure and with each figure on each spot open to it. */
export function legalMoves(s: GameState): Move[] {
  return legalPlacements(s).flatMap((placement) => {
    const { x, y, rotation } = placement;
    const moves: Move[] = [{ x, y, rotation, meeple: null }];
    if (placement.canReturnAbbot) moves.push({ x, y, rotation, meeple: null, returnAbbot: true });
    for (const meeple of placement.meeples) moves.push({ x, y, rotation, meeple });
    for (const figure of EXPANSION_FIGURES) for (const meeple of placement[figure] ?? []) moves.push({ x, y, rotation, meeple, figure });
    return moves;
  });
}
const EXPANSION_FIGURES = FIGURE_NAMES.filter((name): name is ExpansionFigure => name !== 'follower');

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
  const { x, y, rotation } = move;
  if (!Number.isInteger(x) || !Number.isInteger(y)) return { error: 'x and y must be integers' };
  const r = rotationIndex(rotation);
  if (r < 0) return { error: `rotation must be 0, 90, 180 or 270, got ${JSON.stringify(rotation)}` };
  let fi = -1;
  for (let i = 0; i < s.h[H_FRONTIER]; i++) if (s.fx[i] === x && s.fy[i] === y) fi = i;
  if (fi < 0) {
    return { error: isTileAt(s, x, y) ? `(${x},${y}) already holds a tile` : `(${x},${y}) does not touch any tile` };
  }
  if (!fits(ROT_EDGES[type * 4 + r], s.cellCode[s.fcell[fi]])) return { error: `tile ${tile} at rotation ${rotation} does not match its neighbours at (${x},${y})` };
  const refusal = TILE_RULES[type]?.placementRefusal?.(s, type, fi, r, rotation);
  if (refusal) return { error: refusal };
  const spot = move.returnAbbot === undefined ? resolveFigure(s, move, fi, r) : resolveReturnAbbot(s, move, fi);
  return typeof spot === 'string' ? { error: spot } : { fi, r, spot };
}

/** The figure-spot a move's `meeple` and `figure` name on the placement (fi, r), or what is wrong. */
function resolveFigure(s: GameState, move: Move, fi: number, r: number): number | string {
  const figure = figureIndex(s, move.figure);
  if (typeof figure === 'string') return figure;
  const { meeple, rotation } = move;
  if (meeple === null || meeple === undefined) return move.figure === undefined ? -1 : 'figure names the figure placed on "meeple": give a spot, or neither';
  if (typeof meeple !== 'string') return 'meeple must be a spot name or null';
  const type = s.currentTile;
  const spot = ROT_SPOT_LOOKUP[type * 4 + r].get(meeple);
  if (spot === undefined) return `tile ${TYPE_NAMES[type]} at rotation ${rotation} has no follower spot "${meeple}"`;
  if (s.h[supplySlot(figure, s.currentPlayer)] <= 0) return `no ${FIGURES[figure].word} left in the supply`;
  if (!(FIGURES[figure].segs[type] & (1 << spot))) return FIGURES[figure].wrongSpot(meeple);
  if (!(freeSpots(s, type, r, s.fcell[fi]) & (1 << spot))) return `the feature at "${meeple}" already has a follower on it`;
  return figureSpot(spot, figure);
}

/** RETURN_ABBOT when the move may take the mover's abbot back with the tile on slot fi, or what is wrong. */
function resolveReturnAbbot(s: GameState, move: Move, fi: number): number | string {
  if (move.returnAbbot !== true) return 'returnAbbot, when given, must be true';
  if (!(s.options & TAKE_ABBOT_BACK.option)) return `taking the abbot back needs rules.${TAKE_ABBOT_BACK.expansion.key}`;
  if (move.meeple !== null && move.meeple !== undefined) return 'taking the abbot back is instead of placing a figure: meeple must be null';
  if (move.figure !== undefined) return 'taking the abbot back is instead of placing a figure: give no figure';
  return TAKE_ABBOT_BACK.action.refusal(s, fi) ?? RETURN_ABBOT;
}

const FIGURE_CHOICES = `${FIGURE_NAMES.slice(0, -1)
  .map((n) => JSON.stringify(n))
  .join(', ')} or ${JSON.stringify(FIGURE_NAMES.at(-1))}`;

/** A move's figure as expansions/options.ts's FIGURE_*, or what is wrong with it. */
function figureIndex(s: GameState, figure: unknown): number | string {
  if (figure === undefined) return FIGURE_FOLLOWER;
  const f = FIGURE_NAMES.indexOf(figure as FigureName);
  if (f < 0) return `figure must be ${FIGURE_CHOICES}, got ${JSON.stringify(figure)}`;
  if (f !== FIGURE_FOLLOWER && !(s.options & FIGURE_OPTION[f])) return `the ${FIGURES[f].word} needs rules.${FIGURE_EXPANSION[f]!.key}`;
  return f;
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
  /** Present for the expansions' figures only. */
  figure?: ExpansionFigure;
}

/** Followers standing on the board, with the spot named in board orientation. */
export function followersOnBoard(s: GameState): Follower[] {
  const out: Follower[] = [];
  for (let p = 0; p < s.placed; p++) {
    const spot = s.pspot[p];
    if (spot < 0 || s.owner[p * MAX_SEGMENTS + spot] < 0) continue;
    const owner = s.owner[p * MAX_SEGMENTS + spot];
    const figure = ownerFigure(owner);
    const follower: Follower = { player: ownerPlayer(owner), x: s.px[p], y: s.py[p], spot: ROT_SPOT_NAMES[s.ptype[p] * 4 + s.prot[p]][spot] };
    if (figure !== FIGURE_FOLLOWER) follower.figure = FIGURE_NAMES[figure] as ExpansionFigure;
    out.push(follower);
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
  if (m.spot === RETURN_ABBOT) return { x: s.fx[m.fi], y: s.fy[m.fi], rotation: m.r * 90, meeple: null, returnAbbot: true };
  const move: Move = { x: s.fx[m.fi], y: s.fy[m.fi], rotation: m.r * 90, meeple: m.spot >= 0 ? ROT_SPOT_NAMES[tr][m.spot & 7] : null };
  const figure = m.spot >= 0 ? m.spot >> 3 : FIGURE_FOLLOWER;
  if (figure !== FIGURE_FOLLOWER) move.figure = FIGURE_NAMES[figure];
  return move;
}
