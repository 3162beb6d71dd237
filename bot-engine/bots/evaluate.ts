// Static evaluation of a position: each player's expected final score, from what is on the board
// and the multiset of tiles still to come (never their order). Allocation-free; one call costs a
// few microseconds, so searches can afford it at every leaf.
//
// Per feature that holds followers:
// - roads and cities: the distinct empty cells the feature still needs; for each, how many of the
//   remaining tiles fit it (constraints from every side, so a cell no tile can fill makes the
//   feature hopeless: that is how blocking shows up). Chance of completion = product over cells
//   of the chance that a fitting tile is drawn and laid there. Expected points = chance × the
//   completed value + (1 − chance) × the end-of-game value, both by the feature's modifiers (an
//   inn or a cathedral: more when completed, nothing when not);
// - monasteries and gardens: current neighbours + expected neighbours to come;
// - farms: 3 (1st edition: 4) per completed city they touch now, plus a share of each incomplete
//   touching city weighted by its own completion chance;
// - the majority holders (ties all) get the points; every follower on a feature that may complete
//   is expected back with that chance (follower economy), one on a hopeless feature is stranded.
// Followers in the supply are worth a concave amount that shrinks as the game runs out of turns.

import { featurePoints } from '../feature-modifiers.ts';
import { KIND_CITY, KIND_FIELD, KIND_GARDEN, KIND_MONASTERY, KIND_ROAD, MAX_SEGMENTS, FIT, ROT_EDGE_SEG, SEG_FIELD_CITIES, TYPE_COUNT } from '../tiles.ts';
import { CELLS, type GameState, H_FARMERS, H_SCORE, H_TINY_CITY, NODES, cellOf, followersOf, neighbour } from '../state.ts';
import { find, majority } from '../rules.ts';

/** Tunable weights (exported so experiments and docs can name them). */
const EVAL = {
  /** Marginal value of the i-th follower in the supply, as a fraction of the base value. */
  supplyWeights: [1, 1, 0.95, 0.8, 0.6, 0.45, 0.3, 0.2],
  /** Base follower value: min(cap, perTurn × own turns left). */
  followerCap: 5,
  followerPerTurn: 0.22,
  /** Share of a follower's value expected back when its feature completes (it returns later). */
  returnShare: 0.5,
  /** Draws that may fill a cell, as a multiple of the mover's own turns left. */
  drawFactor: 0.8,
  /** Extra per-cell factor: a fitting tile may extend a city instead of closing it. */
  cityCellFactor: 0.6,
  roadCellFactor: 0.92,
  /** A monastery's empty neighbour is filled by anyone's tile: draws = tilesLeft × this. */
  monasteryDraws: 0.45,
  /** Weight of an incomplete city's chance in a farm's value. */
  farmFuture: 0.4,
  /** The large follower and the abbot in the supply, as a multiple of the base follower value:
   * the large one wins majorities, the abbot goes only on monasteries and gardens. */
  largeInSupply: 1.3,
  abbotInSupply: 0.6,
};

const cellStamp = new Int32Array(CELLS);
const rootStamp = new Int32Array(NODES);
const chanceStamp = new Int32Array(NODES);
const chanceValue = new Float64Array(NODES);
const tilesValue = new Int32Array(NODES);
const tileStamp = new Int32Array(NODES / MAX_SEGMENTS);
const cityStamp = new Int32Array(NODES);
const farmStamp = new Int32Array(NODES);
const farmCache = new Float64Array(NODES);
let stamp = 0;
let cityMark = 0;
let cellMark = 0;
let rootMark = 0;

// What depends only on the tiles still to come (and the player count). Every move of one ply
// leaves the same multiset, so a search evaluates many positions in a row with one context:
// it is rebuilt only when the multiset changes, and fit counts and hit chances are memoised in it.
let ctxTiles = 0;
let ctxDraws = 0;
let ctxTypes = 0;
let ctxPlayers = 0;
let ctxEpoch = 0;
const ctxRemaining = new Uint8Array(TYPE_COUNT);
const ctxTypeList = new Int32Array(TYPE_COUNT);
const ctxTypeCount = new Int32Array(TYPE_COUNT);
const CODES = 256;
const fitEpoch = new Int32Array(CODES);
const fitValue = new Int32Array(CODES);
const MAX_FIT = 72;
const HIT_ROAD_CITY = 0;
const HIT_MONASTERY = 1;
const hitEpoch = new Int32Array(2 * (MAX_FIT + 1));
const hitValue = new Float64Array(2 * (MAX_FIT + 1));

function setContext(s: GameState): void {
  const players = s.players;
  let same = players === ctxPlayers && ctxEpoch > 0;
  for (let t = 0; t < TYPE_COUNT && same; t++) same = s.remaining[t] === ctxRemaining[t];
  if (same) return;
  ctxEpoch++;
  ctxPlayers = players;
  ctxRemaining.set(s.remaining);
  ctxTypes = 0;
  ctxTiles = 0;
  for (let t = 0; t < TYPE_COUNT; t++) {
    const c = s.remaining[t];
    if (c === 0) continue;
    ctxTypeList[ctxTypes] = t;
    ctxTypeCount[ctxTypes++] = c;
    ctxTiles += c;
  }
  ctxDraws = EVAL.drawFactor * (ctxTiles / players);
}

/** Remaining tiles that fit an empty cell. */
function fitCount(s: GameState, cell: number): number {
  const code = s.cellCode[cell];
  if (fitEpoch[code] === ctxEpoch) return fitValue[code];
  let f = 0;
  for (let i = 0; i < ctxTypes; i++) if (FIT[ctxTypeList[i] * 256 + code] !== 0) f += ctxTypeCount[i];
  fitEpoch[code] = ctxEpoch;
  fitValue[code] = f;
  return f;
}

/** Chance that at least one of the draws that may reach a cell (roads and cities: the
 * mover's share; monasteries: anyone's) fits it, when `f` of the remaining tiles do. */
function hitChance(f: number, which: number): number {
  const i = which * (MAX_FIT + 1) + f;
  if (hitEpoch[i] === ctxEpoch) return hitValue[i];
  const draws = which === HIT_MONASTERY ? ctxTiles * EVAL.monasteryDraws : ctxDraws;
  const miss = 1 - f / ctxTiles;
  const chance = f <= 0 || draws <= 0 ? 0 : miss <= 0 ? 1 : 1 - Math.pow(miss, draws);
  hitEpoch[i] = ctxEpoch;
  hitValue[i] = chance;
  return chance;
}

/** Chance that the road or city rooted at `root` is completed before the game ends. */
function completionChance(s: GameState, root: number): number {
  if (s.open[root] <= 0) return 1;
  walkFeature(s, root);
  return chanceValue[root];
}

/** Tiles the road or city rooted at `root` spans. */
function tilesOf(s: GameState, root: number): number {
  walkFeature(s, root);
  return tilesValue[root];
}

/** One walk over a road or city for both its tile count and its completion chance: the product
 * over the distinct empty cells it needs of the chance a fitting tile is drawn and laid there. */
function walkFeature(s: GameState, root: number): void {
  if (chanceStamp[root] === stamp) return;
  const needsCells = s.open[root] > 0;
  let chance = needsCells && ctxTiles === 0 ? 0 : 1;
  const factor = s.kind[root] === KIND_CITY ? EVAL.cityCellFactor : EVAL.roadCellFactor;
  const mark = ++cellMark;
  let tiles = 0;
  let n = root;
  do {
    const q = (n / MAX_SEGMENTS) | 0;
    if (tileStamp[q] !== mark) {
      tileStamp[q] = mark;
      tiles++;
    }
    if (needsCells && chance !== 0) {
      const local = n - q * MAX_SEGMENTS;
      const trBase = (s.ptype[q] * 4 + s.prot[q]) * 4;
      const cell = s.pcell[q];
      for (let d = 0; d < 4; d++) {
        if (ROT_EDGE_SEG[trBase + d] !== local) continue;
        const nc = neighbour(cell, d);
        if (s.cellTile[nc] !== 0 || cellStamp[nc] === mark) continue;
        cellStamp[nc] = mark;
        const f = fitCount(s, nc);
        if (f === 0) {
          chance = 0;
          break;
        }
        chance *= hitChance(f, HIT_ROAD_CITY) * factor;
      }
    }
    n = s.next[n];
  } while (n !== root);
  chanceStamp[root] = stamp;
  chanceValue[root] = needsCells ? chance : 1;
  tilesValue[root] = tiles;
}

function followerBase(turnsLeft: number): number {
  return Math.min(EVAL.followerCap, EVAL.followerPerTurn * turnsLeft);
}

function supplyValue(k: number, base: number): number {
  let v = 0;
  const w = EVAL.supplyWeights;
  for (let i = 0; i < k; i++) v += w[i];
  return v * base;
}

/**
 * Writes each player's expected final score into `out` (length ≥ players). `sameBoard`: the
 * last call saw this board, and only followers differ since (one placement's follower moves),
 * so its features' completion chances, sizes and farm values still hold and are reused.
 */
export function evaluate(s: GameState, out: Float64Array, sameBoard = false): void {
  if (!sameBoard) stamp++;
  const players = s.players;
  // The remaining multiset (current tile included: it is still to be laid).
  setContext(s);
  const turnsLeft = ctxTiles / players;
  const base = followerBase(turnsLeft);
  for (let p = 0; p < players; p++) out[p] = s.h[H_SCORE + p] + supplyValue(s.followers(p), base) + base * (EVAL.largeInSupply * s.largeFollowers(p) + EVAL.abbotInSupply * s.abbots(p));
  const tiny = s.h[H_TINY_CITY] === 1;
  const cityFarm = s.h[H_FARMERS] === 1 ? 4 : 3;
  rootMark++;
  const placed = s.placed;
  for (let q = 1; q < placed; q++) {
    const spot = s.pspot[q];
    if (spot < 0) continue;
    const seg = q * MAX_SEGMENTS + spot;
    if (s.owner[seg] < 0) continue;
    const root = find(s, seg);
    if (rootStamp[root] === rootMark) continue;
    rootStamp[root] = rootMark;
    const kind = s.kind[root];
    let points = 0;
    let chance = 0;
    if (kind === KIND_ROAD || kind === KIND_CITY) {
      chance = completionChance(s, root);
      // Completed or left unfinished, by the feature's modifiers: an inn or a cathedral doubles
      // the stakes, worth nothing if the feature is still open at the end.
      const tiles = tilesOf(s, root);
      const mods = s.mods[root];
      const pennants = s.pennants[root];
      points = chance * featurePoints(kind, mods, tiles, pennants, true, tiny) + (1 - chance) * featurePoints(kind, mods, tiles, pennants, false, tiny);
    } else if (kind === KIND_MONASTERY || kind === KIND_GARDEN) {
      const x = s.px[q];
      const y = s.py[q];
      let expected = 1;
      chance = ctxTiles > 0 ? 1 : 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const c = cellOf(x + dx, y + dy);
          if (s.cellTile[c] !== 0) {
            expected++;
            continue;
          }
          const h = hitChance(fitCount(s, c), HIT_MONASTERY);
          expected += h;
          chance *= h;
        }
      }
      points = expected;
    } else if (kind === KIND_FIELD) {
      points = farmValue(s, root, cityFarm);
    }
    const win = majority(s, root);
    for (let p = 0; p < players; p++) {
      if (win & (1 << p)) {
        out[p] += points;
      }
      if (kind !== KIND_FIELD && chance > 0) {
        const m = followersOf(s, root, p);
        if (m > 0) {
          out[p] += m * chance * base * EVAL.returnShare * EVAL.supplyWeights[Math.min(7, s.followers(p))];
        }
      }
    }
  }
}

/** Completed touching cities now, plus incomplete ones weighted by their completion chance. */
function farmValue(s: GameState, root: number, perCity: number): number {
  if (farmStamp[root] === stamp) return farmCache[root];
  const mark = ++cityMark;
  let v = 0;
  let n = root;
  do {
    const q = (n / MAX_SEGMENTS) | 0;
    const local = n - q * MAX_SEGMENTS;
    let mask = SEG_FIELD_CITIES[s.ptype[q] * MAX_SEGMENTS + local];
    while (mask !== 0) {
      const c = 31 - Math.clz32(mask & -mask);
      mask &= mask - 1;
      const city = find(s, q * MAX_SEGMENTS + c);
      if (cityStamp[city] === mark) continue;
      cityStamp[city] = mark;
      v += s.open[city] <= 0 ? perCity : perCity * EVAL.farmFuture * completionChance(s, city);
    }
    n = s.next[n];
  } while (n !== root);
  farmStamp[root] = stamp;
  farmCache[root] = v;
  return v;
}

/** How far player p is ahead: own value minus a blend of the best and the mean opponent. */
export function margin(values: Float64Array, players: number, p: number): number {
  let best = -Infinity;
  let sum = 0;
  for (let q = 0; q < players; q++) {
    if (q === p) continue;
    sum += values[q];
    if (values[q] > best) best = values[q];
  }
  return values[p] - 0.5 * (best + sum / (players - 1));
}

/** Final scores as values (after finalScoring). */
export function finalValues(s: GameState, out: Float64Array): void {
  for (let p = 0; p < s.players; p++) out[p] = s.h[H_SCORE + p];
}

export { KIND_CITY, KIND_ROAD, KIND_FIELD, KIND_MONASTERY };
