// The rules as mutations of a GameState: placing, discarding, feature bookkeeping (union-find
// with open-edge counts, updated per placement, never by scanning the board) and scoring.
// Everything here is synchronous, allocation-free on the hot path, and deterministic.

import {
  FIT,
  HAS_CLOISTER,
  KIND_GARDEN,
  KIND_CITY,
  KIND_FIELD,
  KIND_MONASTERY,
  KIND_ROAD,
  MAX_SEGMENTS,
  MAX_TILES,
  ROT_EDGES,
  ROT_EDGE_SEG,
  ROT_HALF_FIELD,
  SEG_COUNT,
  SEG_FIELD_CITIES,
  SEG_KIND,
  SEG_OPEN,
  SEG_MODS,
  SEG_PENNANT,
  START_TYPE,
  TILE_COUNTS,
  TILE_TYPES,
  tileIndex,
} from './tiles.ts';
import {
  FOLLOWERS,
  H_BAGLEN,
  type GameState,
  H_BAGPOS,
  H_CURRENT,
  H_FARMERS,
  H_FINISHED,
  H_FRONTIER,
  H_LOG,
  H_OPTIONS,
  H_PLACED,
  H_PLAYERS,
  H_TINY_CITY,
  MAX_PLACEMENTS,
  MAX_PLAYERS,
  MAX_SEATS,
  NODES,
  cellOf,
  followersOf,
  neighbour,
  ownerFigure,
  ownerPlayer,
  supplySlot,
} from './state.ts';
import { Rng } from './rng.ts';
import { type ExpansionOptions, expansionBag } from './expansion-tiles.ts';
import { cloisterPoints, featurePoints as modifiedPoints, majorityOf, strengthWord } from './feature-modifiers.ts';
import { type ScoreEvent, award } from './score-events.ts';
import { EXPANSIONS, FIGURE_OPTION, FIGURE_SEGS, FIGURE_STOOD, FIGURE_WENT_HOME, TILE_OWNED, TILE_PLACEMENTS, TILE_PLACING, TURN_ACTIONS, expansionsOn } from './expansions/index.ts';
import { EXPANSION_KEYS, type ExpansionKey, FIGURE_FOLLOWER, FIGURE_KINDS, optionBit } from './expansions/options.ts';

export type { ScoreEvent };
export { PFIGURE_RETURNED_ABBOT, RETURN_ABBOT, abbotNode, mayReturnAbbot } from './expansions/abbot.ts';

export type FarmerRules = '1st' | '2nd' | '3rd';
/** The expansions (docs/RULES.md, expansions/options.ts's keys) are present only when on, so a
 * base game's rules stay as they were. */
export interface Rules extends Partial<Record<ExpansionKey, boolean>> {
  tinyCity: boolean;
  farmers: FarmerRules;
}
export const DEFAULT_RULES: Readonly<Rules> = Object.freeze({ tinyCity: false, farmers: '3rd' });

const OPPOSITE_HALF = [5, 4, 7, 6, 1, 0, 3, 2];

/** Canonical bag order: types A..X, each repeated by its count (the start tile taken out). */
export function canonicalBag(): number[] {
  const bag: number[] = [];
  for (let t = 0; t < TILE_TYPES; t++) {
    const n = TILE_COUNTS[t] - (t === START_TYPE ? 1 : 0);
    for (let i = 0; i < n; i++) bag.push(t);
  }
  return bag;
}

/** Fisher–Yates from the last slot down, on the canonical bag, with `Rng(seed)`. */
export function shuffledBag(seed: string): number[] {
  const bag = canonicalBag();
  new Rng(seed).shuffle(bag);
  return bag;
}

function optionsOf(rules: Rules): ExpansionOptions {
  return Object.fromEntries(EXPANSION_KEYS.map((key) => [key, rules[key] === true])) as ExpansionOptions;
}

/** H_OPTIONS of these rules: each expansion on, its bit. */
function optionBits(rules: Rules): number {
  let bits = 0;
  for (const key of EXPANSION_KEYS) if (rules[key]) bits |= optionBit(key);
  return bits;
}

/** Seats a game under these rules may have: a sixth with Inns & Cathedrals. */
export function maxPlayers(rules: Rules): number {
  let seats = MAX_PLAYERS;
  for (const e of expansionsOn(optionBits(rules))) seats = Math.max(seats, e.seats ?? MAX_PLAYERS);
  return seats;
}

/** " (6 with Inns & Cathedrals)": the expansions that add seats, for an error message. */
const MORE_SEATS = EXPANSIONS.filter((e) => e.seats !== undefined)
  .map((e) => ` (${e.seats} with ${e.name})`)
  .join('');

/** The bag a game deals (docs/ENGINE.md, "Records"): with no expansion the base game's
 * `shuffledBag` (`canonicalBag` without a seed); else expansion-tiles.ts's `expansionBag`. */
export function dealtBag(rules: Rules, seed?: string): number[] {
  const options = optionsOf(rules);
  if (!EXPANSION_KEYS.some((key) => options[key])) return seed === undefined ? canonicalBag() : shuffledBag(seed);
  return expansionBag(options, seed).map(tileIndex);
}

export function initState(s: GameState, players: number, rules: Rules, bag: readonly number[]): GameState {
  const seats = maxPlayers(rules);
  if (!Number.isInteger(players) || players < 1 || players > seats) throw new Error(`a game has 1 to ${seats} players${seats === MAX_PLAYERS ? MORE_SEATS : ''}`);
  const size = dealtBag(rules).length;
  if (bag.length !== size) throw new Error(`the bag holds ${size} tiles`);
  s.bytes.fill(0);
  const h = s.h;
  h[H_PLAYERS] = players;
  h[H_BAGLEN] = bag.length;
  const options = optionBits(rules);
  h[H_OPTIONS] = options;
  h[H_TINY_CITY] = rules.tinyCity ? 1 : 0;
  h[H_FARMERS] = rules.farmers === '1st' ? 1 : rules.farmers === '2nd' ? 2 : 3;
  for (let p = 0; p < players; p++) {
    h[supplySlot(FIGURE_FOLLOWER, p)] = FOLLOWERS;
    for (let f = 1; f < FIGURE_KINDS; f++) h[supplySlot(f, p)] = options & FIGURE_OPTION[f] ? 1 : 0;
  }
  s.bag.set(bag);
  for (const t of bag) s.remaining[t]++;
  s.owner.fill(-1);
  const on = expansionsOn(options);
  placeAt(s, on.find((e) => e.startTile !== undefined)?.startTile ?? START_TYPE, 0, 0, 0, -1, -1);
  for (const e of on) e.start?.(s, optionsOf(rules));
  return s;
}

export function rulesOf(s: GameState): Rules {
  const f = s.h[H_FARMERS];
  const rules: Rules = { tinyCity: s.h[H_TINY_CITY] === 1, farmers: f === 1 ? '1st' : f === 2 ? '2nd' : '3rd' };
  for (const e of expansionsOn(s.h[H_OPTIONS])) rules[e.key] = true;
  return rules;
}

export function find(s: GameState, n: number): number {
  const parent = s.parent;
  while (parent[n] !== n) n = parent[n];
  return n;
}

/** Joins the features of segments a and b (union by size; member lists spliced). */
function union(s: GameState, a: number, b: number, closedEdges: number): void {
  let ra = find(s, a);
  let rb = find(s, b);
  if (ra === rb) {
    s.open[ra] -= closedEdges;
    return;
  }
  if (s.size[ra] < s.size[rb]) {
    const t = ra;
    ra = rb;
    rb = t;
  }
  s.parent[rb] = ra;
  s.size[ra] += s.size[rb];
  s.open[ra] += s.open[rb] - closedEdges;
  s.pennants[ra] += s.pennants[rb];
  s.mods[ra] |= s.mods[rb];
  s.meeples[ra] += s.meeples[rb];
  const t = s.next[ra];
  s.next[ra] = s.next[rb];
  s.next[rb] = t;
}

const ownScratch = new Int32Array(MAX_PLACEMENTS);

/** Writes every legal placement of `type` as (frontier slot << 2 | rotation); returns the count. */
export function listPlacements(s: GameState, type: number, out: Int32Array): number {
  if (TILE_OWNED[type]) return TILE_PLACEMENTS[type]!(s, type, out); // the river's own rule
  let n = 0;
  const len = s.h[H_FRONTIER];
  const base = type * 256;
  for (let fi = 0; fi < len; fi++) {
    let mask = FIT[base + s.cellCode[s.fcell[fi]]];
    while (mask !== 0) {
      const r = 31 - Math.clz32(mask & -mask);
      out[n++] = (fi << 2) | r;
      mask &= mask - 1;
    }
  }
  return n;
}

export function canPlaceAnywhere(s: GameState, type: number): boolean {
  if (TILE_OWNED[type]) return TILE_PLACEMENTS[type]!(s, type, ownScratch) > 0;
  const len = s.h[H_FRONTIER];
  const base = type * 256;
  for (let fi = 0; fi < len; fi++) if (FIT[base + s.cellCode[s.fcell[fi]]] !== 0) return true;
  return false;
}

// Scratch for freeSpots: each neighbour feature the tile would join, and the local segment
// that joins it (4 edges + 8 half-edges at most).
const joinRoot = new Int32Array(12);
const joinSeg = new Int8Array(12);

/** Local segments of `type` at rotation r on `cell` where a follower may stand (ignores supply):
 * those whose feature, once the tile joins its neighbours, holds no follower. Two segments of the
 * tile can end up in one feature through a neighbour's, so occupation spreads across them. */
export function freeSpots(s: GameState, type: number, r: number, cell: number): number {
  const tr = type * 4 + r;
  let joins = 0;
  for (let d = 0; d < 4; d++) {
    const q = s.cellTile[neighbour(cell, d)] - 1;
    if (q < 0) continue;
    const qtr = s.ptype[q] * 4 + s.prot[q];
    const od = (d + 2) & 3;
    const es = ROT_EDGE_SEG[tr * 4 + d];
    if (es >= 0) {
      joinRoot[joins] = find(s, q * MAX_SEGMENTS + ROT_EDGE_SEG[qtr * 4 + od]);
      joinSeg[joins++] = es;
    }
    for (let h = 2 * d; h < 2 * d + 2; h++) {
      const f = ROT_HALF_FIELD[tr * 8 + h];
      if (f < 0) continue;
      joinRoot[joins] = find(s, q * MAX_SEGMENTS + ROT_HALF_FIELD[qtr * 8 + OPPOSITE_HALF[h]]);
      joinSeg[joins++] = f;
    }
  }
  let taken = 0;
  for (let i = 0; i < joins; i++) if (s.meeples[joinRoot[i]] !== 0) taken |= 1 << joinSeg[i];
  // A taken segment takes every other segment that joins one of the same neighbour features.
  for (let grew = taken !== 0; grew; ) {
    grew = false;
    for (let i = 0; i < joins; i++) {
      if (!(taken & (1 << joinSeg[i]))) continue;
      for (let j = 0; j < joins; j++) {
        if (joinRoot[j] === joinRoot[i] && !(taken & (1 << joinSeg[j]))) {
          taken |= 1 << joinSeg[j];
          grew = true;
        }
      }
    }
  }
  return ((1 << SEG_COUNT[type]) - 1) & ~taken;
}

/** Places the current tile at frontier slot fi, rotation r, a figure on figure-spot `spot`
 * (`figureSpot(local, figure)`; -1: none), scores what it completes, and passes the turn. The
 * move must be legal. */
export function place(s: GameState, fi: number, r: number, spot: number, events?: ScoreEvent[]): void {
  const h = s.h;
  const type = s.bag[h[H_BAGPOS]];
  const player = h[H_CURRENT];
  const x = s.fx[fi];
  const y = s.fy[fi];
  const last = h[H_FRONTIER] - 1;
  s.fcell[fi] = s.fcell[last];
  s.fx[fi] = s.fx[last];
  s.fy[fi] = s.fy[last];
  h[H_FRONTIER] = last;
  if (TILE_OWNED[type]) TILE_PLACING[type]?.(s, type, x, y, r);
  const action = spot >= FIRST_ACTION_SPOT ? turnAction(spot) : undefined;
  action?.apply(s, player, x, y, events);
  const p = placeAt(s, type, x, y, r, player, action ? -1 : spot, events);
  if (action) s.pfigure[p] = action.pfigure;
  s.remaining[type]--;
  s.log[h[H_LOG]++] = p;
  h[H_BAGPOS]++;
  h[H_CURRENT] = (player + 1) % h[H_PLAYERS];
}

/** A figure-spot: the local segment, and the figure (feature-modifiers.ts's FIGURE_*) above it. */
export const FIGURE_SHIFT = 3;
export function figureSpot(local: number, figure: number): number {
  return local | (figure << FIGURE_SHIFT);
}

/** Figure-spots from here on are the expansions' turn actions (the Abbot's RETURN_ABBOT). */
const FIRST_ACTION_SPOT = FIGURE_KINDS << FIGURE_SHIFT;

/** The turn action with this figure-spot value, or undefined. */
export function turnAction(spot: number): (typeof TURN_ACTIONS)[number]['action'] | undefined {
  for (const t of TURN_ACTIONS) if (t.action.spot === spot) return t.action;
  return undefined;
}

/** Stands the mover's figure on placement p's figure-spot `spot`, taking it from its supply. */
function standFigure(s: GameState, p: number, spot: number): void {
  const local = spot & 7;
  const figure = spot >> FIGURE_SHIFT;
  const player = s.pplayer[p];
  const seg = p * MAX_SEGMENTS + local;
  s.pspot[p] = local;
  s.pfigure[p] = figure;
  s.owner[seg] = player | (figure << FIGURE_SHIFT);
  s.meeples[find(s, seg)] += strengthWord(player, figure);
  s.h[supplySlot(figure, player)]--;
  if (figure !== FIGURE_FOLLOWER) FIGURE_STOOD[figure]?.(s, player, p);
}

/**
 * Puts the mover's figure on figure-spot `spot` of the tile just placed without one, when
 * that gives byte for byte the state of placing the tile with it: the figure's feature was not
 * completed (and scored) by the placement. Returns false, changing nothing, when it was.
 * Searches score every figure spot of a placement on one placed copy this way (then
 * takeBackFollowerFromLastPlaced) instead of copying the state and placing the tile again.
 */
export function addFollowerToLastPlaced(s: GameState, spot: number): boolean {
  const p = s.h[H_PLACED] - 1;
  const root = find(s, p * MAX_SEGMENTS + (spot & 7));
  if (s.kind[root] !== KIND_FIELD && s.open[root] === 0) return false;
  standFigure(s, p, spot);
  return true;
}

/** Undoes addFollowerToLastPlaced (after it returned true): byte for byte the state before it. */
export function takeBackFollowerFromLastPlaced(s: GameState, spot: number): void {
  const p = s.h[H_PLACED] - 1;
  const seg = p * MAX_SEGMENTS + (spot & 7);
  const figure = spot >> FIGURE_SHIFT;
  const player = s.pplayer[p];
  s.pspot[p] = -1;
  s.pfigure[p] = 0;
  s.owner[seg] = -1;
  s.meeples[find(s, seg)] -= strengthWord(player, figure);
  s.h[supplySlot(figure, player)]++;
  if (figure !== FIGURE_FOLLOWER) FIGURE_WENT_HOME[figure]?.(s, player);
}

/** The local segments of `type` at rotation r on `cell` open to each figure in the current
 * player's supply, as bit masks by figure (feature-modifiers.ts's FIGURE_*; 0 when none is left). */
export function openFigureSpots(s: GameState, type: number, r: number, cell: number, out: Int32Array): void {
  const p = s.h[H_CURRENT];
  let free = -1; // not looked up yet
  for (let f = 0; f < FIGURE_KINDS; f++) {
    if (s.h[supplySlot(f, p)] <= 0) {
      out[f] = 0;
      continue;
    }
    if (free < 0) free = freeSpots(s, type, r, cell);
    out[f] = free & FIGURE_SEGS[f][type];
  }
}

/** Discards the current tile (it must fit nowhere); the same player draws again. */
export function discard(s: GameState): void {
  const h = s.h;
  const type = s.bag[h[H_BAGPOS]];
  s.remaining[type]--;
  s.log[h[H_LOG]++] = -(type + 1);
  h[H_BAGPOS]++;
}

/** Where the bag's section holding slot `pos` ends: with the River, the river tiles, then the
 * lake's one slot, then the land tiles; else the whole bag is one section. */
export function sectionEnd(s: GameState, pos: number): number {
  for (const [bit, end] of SECTIONED) if (s.h[H_OPTIONS] & bit) return end(s, pos);
  return s.h[H_BAGLEN];
}
const SECTIONED = EXPANSIONS.flatMap((e) => (e.sectionEnd ? [[optionBit(e.key), e.sectionEnd] as const] : []));

/** Makes `type` the current tile, keeping the rest of the bag in order (replaying a record); only
 * from the current section of the bag. */
export function drawType(s: GameState, type: number): boolean {
  const pos = s.h[H_BAGPOS];
  let j = pos;
  const end = sectionEnd(s, pos);
  while (j < end && s.bag[j] !== type) j++;
  if (j >= end) return false;
  s.bag.copyWithin(pos + 1, pos, j);
  s.bag[pos] = type;
  return true;
}

/** Sorts the undrawn bag after the current tile: what a player may know of it is its contents. */
export function hideBag(s: GameState): GameState {
  for (let pos = s.h[H_BAGPOS] + 1; pos < s.h[H_BAGLEN]; ) {
    const end = sectionEnd(s, pos);
    s.bag.subarray(pos, end).sort();
    pos = end;
  }
  return s;
}

function placeAt(s: GameState, type: number, x: number, y: number, r: number, player: number, spot: number, events?: ScoreEvent[]): number {
  const h = s.h;
  const p = h[H_PLACED]++;
  const cell = cellOf(x, y);
  const tr = type * 4 + r;
  s.ptype[p] = type;
  s.prot[p] = r;
  s.px[p] = x;
  s.py[p] = y;
  s.pcell[p] = cell;
  s.pplayer[p] = player;
  s.pspot[p] = -1;
  s.pfigure[p] = 0;
  s.cellTile[cell] = p + 1;
  const base = p * MAX_SEGMENTS;
  const segs = SEG_COUNT[type];
  for (let i = 0; i < segs; i++) {
    const n = base + i;
    const k = type * MAX_SEGMENTS + i;
    s.parent[n] = n;
    s.next[n] = n;
    s.size[n] = 1;
    s.open[n] = SEG_OPEN[k];
    s.pennants[n] = SEG_PENNANT[k];
    s.mods[n] = SEG_MODS[k];
    s.kind[n] = SEG_KIND[k];
  }
  const edges = ROT_EDGES[tr];
  for (let d = 0; d < 4; d++) {
    const nc = neighbour(cell, d);
    const q = s.cellTile[nc] - 1;
    const od = (d + 2) & 3;
    if (q < 0) {
      if (s.cellCode[nc] === 0) addFrontier(s, nc, x + (d === 1 ? 1 : d === 3 ? -1 : 0), y + (d === 2 ? 1 : d === 0 ? -1 : 0));
      s.cellCode[nc] |= ((edges >> (d * 2)) & 3) << (od * 2);
      continue;
    }
    const qbase = q * MAX_SEGMENTS;
    const qtr = s.ptype[q] * 4 + s.prot[q];
    const es = ROT_EDGE_SEG[tr * 4 + d];
    if (es >= 0) union(s, base + es, qbase + ROT_EDGE_SEG[qtr * 4 + od], 2);
    for (let hh = 2 * d; hh < 2 * d + 2; hh++) {
      const f = ROT_HALF_FIELD[tr * 8 + hh];
      if (f >= 0) union(s, base + f, qbase + ROT_HALF_FIELD[qtr * 8 + OPPOSITE_HALF[hh]], 0);
    }
  }
  if (spot >= 0) standFigure(s, p, spot);
  // Monasteries: this tile is a neighbour of any around it, and counts its own neighbours.
  const ownMonastery = HAS_CLOISTER[type] ? base + segs - 1 : -1;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      const q = s.cellTile[cellOf(x + dx, y + dy)] - 1;
      if (q < 0) continue;
      if (ownMonastery >= 0) s.open[ownMonastery]--;
      const qt = s.ptype[q];
      if (HAS_CLOISTER[qt]) {
        const m = q * MAX_SEGMENTS + SEG_COUNT[qt] - 1;
        if (--s.open[m] === 0) scoreFeature(s, m, 'play', events);
      }
    }
  }
  if (ownMonastery >= 0 && s.open[ownMonastery] === 0) scoreFeature(s, ownMonastery, 'play', events);
  // Roads and cities this tile completed (two of its segments may share one root: score once).
  for (let i = 0; i < segs; i++) {
    const k = SEG_KIND[type * MAX_SEGMENTS + i];
    if (k !== KIND_CITY && k !== KIND_ROAD) continue;
    const root = find(s, base + i);
    if (s.open[root] === 0) {
      s.open[root] = -1; // scored marker, until the loop ends
      scoreFeature(s, root, 'play', events);
    }
  }
  for (let i = 0; i < segs; i++) {
    const root = find(s, base + i);
    if (s.open[root] === -1) s.open[root] = 0;
  }
  return p;
}

function addFrontier(s: GameState, cell: number, x: number, y: number): void {
  const n = s.h[H_FRONTIER]++;
  s.fcell[n] = cell;
  s.fx[n] = x;
  s.fy[n] = y;
}

// Scratch for distinct-tile counting; module-level so scoring never allocates.
const tileStamp = new Int32Array(MAX_TILES);
let stampValue = 0;

/** Distinct tiles holding a segment of the feature rooted at `root`. */
export function featureTiles(s: GameState, root: number): number {
  stampValue++;
  let count = 0;
  let n = root;
  do {
    const t = (n / MAX_SEGMENTS) | 0;
    if (tileStamp[t] !== stampValue) {
      tileStamp[t] = stampValue;
      count++;
    }
    n = s.next[n];
  } while (n !== root);
  return count;
}

/** Points a road, city or monastery is worth now (complete or not, by `phase`). */
function featurePoints(s: GameState, root: number, complete: boolean): number {
  const kind = s.kind[root];
  if (isCloister(kind)) return cloisterPoints(s.open[root]);
  return modifiedPoints(kind, s.mods[root], featureTiles(s, root), s.pennants[root], complete, s.h[H_TINY_CITY] === 1);
}

/** Players with the most followers on a root, as a bitmask (0 when none stands there). */
export function majority(s: GameState, root: number): number {
  return majorityOf(s.meeples[root]);
}

/** A monastery or garden: scored by its missing neighbours. */
function isCloister(kind: number): boolean {
  return kind === KIND_MONASTERY || kind === KIND_GARDEN;
}

/** Scores a completed feature in play and returns its followers to their supplies. */
function scoreFeature(s: GameState, root: number, phase: ScoreEvent['phase'], events?: ScoreEvent[]): void {
  if (s.meeples[root] === 0) return;
  const kind = s.kind[root];
  const points = featurePoints(s, root, phase === 'play');
  award(s, majority(s, root), points, kind, phase, isCloister(kind) ? 9 - s.open[root] : featureTiles(s, root), events, s.mods[root]);
  let n = root;
  do {
    const o = s.owner[n];
    if (o >= 0) {
      const figure = ownerFigure(o);
      s.h[supplySlot(figure, ownerPlayer(o))]++;
      if (figure !== FIGURE_FOLLOWER) FIGURE_WENT_HOME[figure]?.(s, ownerPlayer(o));
      s.owner[n] = -1;
    }
    n = s.next[n];
  } while (n !== root);
  s.meeples[root] = 0;
}

/** End of game: incomplete roads, cities and monasteries, then farms. Followers stay shown. */
export function finalScoring(s: GameState, events?: ScoreEvent[]): void {
  if (s.h[H_FINISHED]) return;
  const nodes = s.h[H_PLACED] * MAX_SEGMENTS;
  for (let n = 0; n < nodes; n++) {
    if (s.parent[n] !== n || s.size[n] === 0 || s.kind[n] === KIND_FIELD || s.meeples[n] === 0) continue;
    if (s.open[n] === 0) continue;
    const kind = s.kind[n];
    const tiles = isCloister(kind) ? 9 - s.open[n] : featureTiles(s, n);
    award(s, majority(s, n), featurePoints(s, n, false), kind, 'final', tiles, events, s.mods[n]);
  }
  const edition = s.h[H_FARMERS];
  if (edition === 1) scoreFarmsFirstEdition(s, events);
  else scoreFarms(s, edition === 2, events);
  s.h[H_FINISHED] = 1;
}

// Scratch for farms: which city roots a farm (or a player) has already counted.
const cityStamp = new Int32Array(NODES);
const paidStamp = new Int32Array(NODES * MAX_SEATS);
let farmStampValue = 0;
/** The cities farmCities found, in the order found: scratch, so scoring a farm allocates nothing
 * (final scoring runs for every move a greedy search weighs). */
const farmCityScratch = new Int32Array(NODES);
const unpaidScratch = new Int32Array(MAX_SEATS);

/** The distinct completed city roots the farm rooted at `root` touches: their count, the roots in
 * farmCityScratch[0 … count). */
function farmCities(s: GameState, root: number): number {
  let count = 0;
  farmStampValue++;
  let n = root;
  do {
    const p = (n / MAX_SEGMENTS) | 0;
    const local = n - p * MAX_SEGMENTS;
    let mask = SEG_FIELD_CITIES[s.ptype[p] * MAX_SEGMENTS + local];
    while (mask !== 0) {
      const c = 31 - Math.clz32(mask & -mask);
      mask &= mask - 1;
      const city = find(s, p * MAX_SEGMENTS + c);
      if (s.open[city] === 0 && cityStamp[city] !== farmStampValue) {
        cityStamp[city] = farmStampValue;
        farmCityScratch[count++] = city;
      }
    }
    n = s.next[n];
  } while (n !== root);
  return count;
}

function isFarmRoot(s: GameState, n: number): boolean {
  return s.parent[n] === n && s.size[n] > 0 && s.kind[n] === KIND_FIELD;
}

/** 3rd edition: 3 per completed city per farm. 2nd: a city pays each player at most once. */
function scoreFarms(s: GameState, oncePerPlayer: boolean, events?: ScoreEvent[]): void {
  const nodes = s.h[H_PLACED] * MAX_SEGMENTS;
  if (oncePerPlayer) paidStamp.fill(0);
  for (let n = 0; n < nodes; n++) {
    if (!isFarmRoot(s, n) || s.meeples[n] === 0) continue;
    const winners = majority(s, n);
    const cities = farmCities(s, n);
    if (!oncePerPlayer) {
      award(s, winners, 3 * cities, KIND_FIELD, 'final', cities, events);
      continue;
    }
    // Per winner, only cities not yet paid to that player; group winners by equal pay.
    const unpaid = unpaidScratch.fill(0);
    for (let i = 0; i < cities; i++) {
      const city = farmCityScratch[i];
      for (let p = 0; p < MAX_SEATS; p++) {
        if (winners & (1 << p) && paidStamp[city * MAX_SEATS + p] === 0) {
          paidStamp[city * MAX_SEATS + p] = 1;
          unpaid[p]++;
        }
      }
    }
    let left = winners;
    while (left !== 0) {
      const first = 31 - Math.clz32(left & -left);
      let group = 0;
      for (let p = 0; p < MAX_SEATS; p++) if (left & (1 << p) && unpaid[p] === unpaid[first]) group |= 1 << p;
      award(s, group, 3 * unpaid[first], KIND_FIELD, 'final', unpaid[first], events);
      left &= ~group;
    }
  }
}

/** 1st edition: each completed city goes to the most farmers across all farms touching it: 4. */
function scoreFarmsFirstEdition(s: GameState, events?: ScoreEvent[]): void {
  const nodes = s.h[H_PLACED] * MAX_SEGMENTS;
  const farmersAt = new Map<number, number[]>();
  for (let n = 0; n < nodes; n++) {
    if (!isFarmRoot(s, n) || s.meeples[n] === 0) continue;
    const cities = farmCities(s, n);
    for (let i = 0; i < cities; i++) {
      const city = farmCityScratch[i];
      const counts = farmersAt.get(city) ?? new Array<number>(MAX_SEATS).fill(0);
      farmersAt.set(city, counts);
      for (let p = 0; p < MAX_SEATS; p++) counts[p] += followersOf(s, n, p);
    }
  }
  for (const city of [...farmersAt.keys()].sort((a, b) => a - b)) {
    const counts = farmersAt.get(city)!;
    const best = Math.max(...counts);
    let winners = 0;
    for (let p = 0; p < MAX_SEATS; p++) if (counts[p] === best) winners |= 1 << p;
    award(s, winners, 4, KIND_FIELD, 'final', 1, events);
  }
}

/** Discards every current tile that fits nowhere (the same player draws again). */
export function discardUnplaceable(s: GameState, discarded?: number[]): void {
  while (s.h[H_BAGPOS] < s.h[H_BAGLEN] && !canPlaceAnywhere(s, s.bag[s.h[H_BAGPOS]])) {
    discarded?.push(s.bag[s.h[H_BAGPOS]]);
    discard(s);
  }
}

export function bagEmpty(s: GameState): boolean {
  return s.h[H_BAGPOS] >= s.h[H_BAGLEN];
}
