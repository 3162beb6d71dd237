// Property tests over many seeded random games: the incremental bookkeeping against a
// from-scratch flood fill, follower conservation, legal moves against brute force, records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameState, H_BAGPOS, H_FRONTIER, MAX_SEATS, cellOf, followersOf, neighbour, ownerFigure, ownerPlayer } from '../bot-engine/state.ts';
import {
  DISTINCT_ROTATIONS,
  HAS_CLOISTER,
  IS_RIVER,
  KIND_GARDEN,
  SEG_MODS,
  KIND_CITY,
  KIND_MONASTERY,
  KIND_ROAD,
  MAX_SEGMENTS,
  ROT_EDGES,
  ROT_EDGE_SEG,
  ROT_HALF_FIELD,
  ROT_SPOT_LOOKUP,
  SEG_COUNT,
  SEG_KIND,
  SEG_PENNANT,
  tileIndex,
} from '../bot-engine/tiles.ts';
import {
  addFollowerToLastPlaced,
  bagEmpty,
  canPlaceAnywhere,
  drawType,
  takeBackFollowerFromLastPlaced,
  discardUnplaceable,
  featureTiles,
  finalScoring,
  find,
  freeSpots,
  hideBag,
  listPlacements,
  place,
  rulesOf,
  shuffledBag,
} from '../bot-engine/rules.ts';
import { newGame, legalMoves, legalPlacements, playMove } from '../bot-engine/game.ts';
import { randomMove } from '../bot-engine/playout.ts';
import { MAX_MOVES, listMoves, moveFi, moveR, moveSpot } from '../bot-engine/bots/moves.ts';
import { Rng } from '../bot-engine/rng.ts';
import { RecordError, replayRecord, toRecord } from '../bot-engine/record.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { walkFeature } from './support/expansion-moves.ts';
import { FIGURE_STRENGTH } from '../bot-engine/feature-modifiers.ts';

const RULE_SETS: Rules[] = [
  { tinyCity: false, farmers: '3rd' },
  { tinyCity: true, farmers: '2nd' },
  { tinyCity: false, farmers: '1st' },
];
/** The base sets with the expansions on, for the bookkeeping property. */
const EXPANSION_SETS: Rules[] = [
  { tinyCity: false, farmers: '3rd', innsCathedrals: true, abbot: true },
  { tinyCity: true, farmers: '2nd', river: true, innsCathedrals: true },
  { tinyCity: false, farmers: '1st', river: true, abbot: true },
];

interface RefFeature {
  kind: number;
  nodes: number[];
  tiles: number;
  open: number;
  pennants: number;
  mods: number;
  /** Strength per player: a follower 1, the large follower 2, the abbot 1. */
  meeples: number[];
}

/** Features by flood fill over the board as it stands, knowing nothing of the union-find. */
function recount(s: GameState): Map<number, RefFeature> {
  const adj = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    adj.get(a)!.push(b);
    adj.get(b)!.push(a);
  };
  const open = new Map<number, number>();
  for (let p = 0; p < s.placed; p++)
    for (let i = 0; i < SEG_COUNT[s.ptype[p]]; i++) {
      adj.set(p * MAX_SEGMENTS + i, []);
      open.set(p * MAX_SEGMENTS + i, 0);
    }
  const opposite = [5, 4, 7, 6, 1, 0, 3, 2];
  for (let p = 0; p < s.placed; p++) {
    const tr = s.ptype[p] * 4 + s.prot[p];
    let neighbours = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && s.cellTile[cellOf(s.px[p] + dx, s.py[p] + dy)]) neighbours++;
    if (HAS_CLOISTER[s.ptype[p]]) open.set(p * MAX_SEGMENTS + SEG_COUNT[s.ptype[p]] - 1, 8 - neighbours);
    for (let d = 0; d < 4; d++) {
      const q = s.cellTile[neighbour(s.pcell[p], d)] - 1;
      const es = ROT_EDGE_SEG[tr * 4 + d];
      if (q < 0) {
        if (es >= 0) open.set(p * MAX_SEGMENTS + es, open.get(p * MAX_SEGMENTS + es)! + 1);
        continue;
      }
      if (q < p) continue; // each shared edge once
      const qtr = s.ptype[q] * 4 + s.prot[q];
      if (es >= 0) link(p * MAX_SEGMENTS + es, q * MAX_SEGMENTS + ROT_EDGE_SEG[qtr * 4 + ((d + 2) & 3)]);
      for (let h = 2 * d; h < 2 * d + 2; h++) {
        const f = ROT_HALF_FIELD[tr * 8 + h];
        if (f >= 0) link(p * MAX_SEGMENTS + f, q * MAX_SEGMENTS + ROT_HALF_FIELD[qtr * 8 + opposite[h]]);
      }
    }
  }
  const byNode = new Map<number, RefFeature>();
  for (const start of adj.keys()) {
    if (byNode.has(start)) continue;
    const kind = SEG_KIND[s.ptype[(start / 8) | 0] * 8 + (start % 8)];
    const f: RefFeature = { kind, nodes: [], tiles: 0, open: 0, pennants: 0, mods: 0, meeples: new Array(MAX_SEATS).fill(0) };
    const stack = [start];
    byNode.set(start, f);
    while (stack.length) {
      const n = stack.pop()!;
      f.nodes.push(n);
      for (const m of adj.get(n)!)
        if (!byNode.has(m)) {
          byNode.set(m, f);
          stack.push(m);
        }
    }
    const tiles = new Set(f.nodes.map((n) => (n / 8) | 0));
    f.tiles = tiles.size;
    for (const n of f.nodes) {
      f.open += open.get(n)!;
      f.pennants += SEG_PENNANT[s.ptype[(n / 8) | 0] * 8 + (n % 8)];
      f.mods |= SEG_MODS[s.ptype[(n / 8) | 0] * 8 + (n % 8)];
      if (s.owner[n] >= 0) f.meeples[ownerPlayer(s.owner[n])] += FIGURE_STRENGTH[ownerFigure(s.owner[n])];
    }
  }
  return byNode;
}

function checkBookkeeping(s: GameState, where: string): void {
  const ref = recount(s);
  const rootOf = new Map<RefFeature, number>();
  for (const [n, f] of ref) {
    const root = find(s, n);
    const seen = rootOf.get(f);
    if (seen === undefined) rootOf.set(f, root);
    else assert.equal(root, seen, `${where}: node ${n} split from its feature`);
    assert.equal(s.kind[root], f.kind, `${where}: kind`);
    const cloister = f.kind === KIND_MONASTERY || f.kind === KIND_GARDEN;
    if (f.kind === KIND_CITY || f.kind === KIND_ROAD || cloister) assert.equal(s.open[root], f.open, `${where}: open edges of node ${n}`);
    if (!cloister) assert.equal(featureTiles(s, root), f.tiles, `${where}: tiles of node ${n}`);
    assert.equal(s.pennants[root], f.pennants, `${where}: pennants`);
    assert.equal(s.mods[root], f.mods, `${where}: inn and cathedral of node ${n}`);
    for (let p = 0; p < MAX_SEATS; p++) assert.equal(followersOf(s, root, p), f.meeples[p], `${where}: followers of ${p} on node ${n}`);
    assert.equal(
      s.meeples[root] === 0,
      f.meeples.every((c) => c === 0),
      `${where}: any follower on node ${n}`,
    );
  }
  assert.equal(new Set(rootOf.values()).size, rootOf.size, `${where}: two features share a root`);
  for (let p = 0; p < s.players; p++) {
    const onBoard = [0, 0, 0];
    for (const n of ref.keys()) if (s.owner[n] >= 0 && ownerPlayer(s.owner[n]) === p) onBoard[ownerFigure(s.owner[n])]++;
    const options = rulesOf(s);
    assert.deepEqual(
      [s.followers(p) + onBoard[0], s.largeFollowers(p) + onBoard[1], s.abbots(p) + onBoard[2]],
      [7, options.innsCathedrals ? 1 : 0, options.abbot ? 1 : 0],
      `${where}: figures of player ${p} conserved`,
    );
  }
}

/** Every (x, y, distinct rotation) that fits, by trying all cells around every tile. */
function bruteForcePlacements(s: GameState, type: number): Set<string> {
  const out = new Set<string>();
  for (let p = 0; p < s.placed; p++)
    for (const [dx, dy] of [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ]) {
      const x = s.px[p] + dx;
      const y = s.py[p] + dy;
      if (s.cellTile[cellOf(x, y)]) continue;
      for (let r = 0; r < 4; r++) {
        if (!(DISTINCT_ROTATIONS[type] & (1 << r))) continue;
        const edges = ROT_EDGES[type * 4 + r];
        let ok = true;
        for (let d = 0; d < 4 && ok; d++) {
          const q = s.cellTile[neighbour(cellOf(x, y), d)] - 1;
          if (q < 0) continue;
          const theirs = (ROT_EDGES[s.ptype[q] * 4 + s.prot[q]] >> (((d + 2) & 3) * 2)) & 3;
          ok = theirs === ((edges >> (d * 2)) & 3);
        }
        if (ok) out.add(`${x},${y},${r}`);
      }
    }
  return out;
}

const out = new Int32Array(1024);

test('random games: bookkeeping equals a recount, figures are conserved, legal placements equal brute force', () => {
  for (let g = 0; g < 90; g++) {
    // The last 30 with expansions: modifiers, strengths and river banks against the recount.
    const rules = g < 60 ? RULE_SETS[g % 3] : EXPANSION_SETS[g % 3];
    const s = newGame({ players: 2 + (g % 4), rules, seed: `prop-${g}` });
    const rng = new Rng(g);
    while (!bagEmpty(s)) {
      const type = s.currentTile;
      const n = listPlacements(s, type, out);
      const listed = new Set<string>();
      for (let i = 0; i < n; i++) listed.add(`${s.fx[out[i] >> 2]},${s.fy[out[i] >> 2]},${out[i] & 3}`);
      assert.equal(listed.size, n, 'no placement listed twice');
      if (!IS_RIVER[type]) assert.deepEqual(listed, bruteForcePlacements(s, type)); // river: engine-expansions-river
      const m = randomMove(s, rng, 0.7);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
      checkBookkeeping(s, `game ${g} after ${s.placed} tiles`);
    }
    finalScoring(s);
    checkBookkeeping(s, `game ${g} at the end`);
  }
});

test('free follower spots of every placement equal brute force: place the tile, walk each feature, look for a follower', () => {
  // Every placement of every turn, 2-5 players, followers placed often: occupied features are
  // common, and so are new tiles whose segments join through one neighbouring feature.
  let joinedThroughNeighbour = 0;
  for (let g = 0; g < 50; g++) {
    const players = 2 + (g % 4);
    const s = newGame({ players, rules: RULE_SETS[g % 3], seed: `spots-${g}` });
    const rng = new Rng(100 + g);
    const trial = new GameState();
    while (!bagEmpty(s)) {
      const type = s.currentTile;
      const n = listPlacements(s, type, out);
      for (let k = 0; k < n; k++) {
        const fi = out[k] >> 2;
        const r = out[k] & 3;
        const free = freeSpots(s, type, r, s.fcell[fi]);
        const p = s.placed;
        place(trial.copyFrom(s), fi, r, -1);
        for (let i = 0; i < SEG_COUNT[type]; i++) {
          const feature = walkFeature(trial, p * MAX_SEGMENTS + i);
          // Followers as they stood before the tile (its scoring may have sent some home).
          const occupied = feature.some((node) => node < p * MAX_SEGMENTS && s.owner[node] >= 0);
          assert.equal(Boolean(free & (1 << i)), !occupied, `game ${g}, ${s.fx[fi]},${s.fy[fi]} rotation ${r * 90}: segment ${i} of ${type}`);
          if (occupied && feature.filter((node) => node >= p * MAX_SEGMENTS).length > 1) joinedThroughNeighbour++;
        }
      }
      const m = randomMove(s, rng, 0.9);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
  }
  assert.ok(joinedThroughNeighbour > 0, 'the games hold occupied features that join two segments of the new tile');
});

test('the reported case: a follower reaching an occupied field through its own tile and a neighbour is refused', () => {
  const record = {
    format: 'tessera-game/1',
    players: ['A', 'B'],
    final: true,
    moves: [
      { tile: 'U', x: -1, y: 0, rotation: 0, meeple: 'field:SW' },
      { tile: 'E', x: 0, y: -1, rotation: 180, meeple: null },
      { tile: 'A', x: 1, y: -1, rotation: 0, meeple: null },
      { tile: 'J', x: 1, y: 0, rotation: 180, meeple: 'field:NW' },
    ],
  };
  assert.throws(
    () => replayRecord(record),
    (e: unknown) => e instanceof RecordError && e.moveIndex === 3 && /already has a follower/.test(e.message),
  );
  // Without the follower the same move is legal, and the spot is not offered.
  const without = replayRecord({ ...record, moves: [...record.moves.slice(0, 3), { ...record.moves[3], meeple: null }] });
  assert.equal(without.state.placed, 5);
  const before = replayRecord({ ...record, moves: record.moves.slice(0, 3), final: false }).state;
  assert.ok(drawType(before, tileIndex('J')));
  const spot = legalPlacements(before).find((m) => m.x === 1 && m.y === 0 && m.rotation === 180);
  assert.ok(spot && !spot.meeples.includes('field:NW') && spot.meeples.includes('road:N'), JSON.stringify(spot));
});

test('record → replay reproduces the same state byte for byte, and the same scores', () => {
  for (let g = 0; g < 40; g++) {
    const players = ['Ann', 'Ben', 'Cat', 'Dan', 'Eve'].slice(0, 1 + (g % 5));
    const s = newGame({ players: players.length, rules: RULE_SETS[g % 3], seed: `rec-${g}` });
    const rng = new Rng(g);
    const stopAt = g % 4 === 0 ? 30 : Infinity; // some records are of unfinished games
    while (!s.finished && s.placed < stopAt) {
      const moves = legalMoves(s);
      const result = playMove(s, moves[rng.below(moves.length)]);
      assert.ok(!('error' in result));
    }
    const record = JSON.parse(JSON.stringify(toRecord(s, players, `rec-${g}`)));
    const replayed = replayRecord(record);
    assert.ok(Buffer.from(replayed.state.bytes).equals(Buffer.from(s.bytes)), `game ${g}: replayed state differs`);
    for (const [i, name] of players.entries()) assert.equal(replayed.scores[name], s.score(i));
  }
});

test('a move may name a spot by any side or corner of its feature, and a symmetric duplicate of a listed rotation; the outcome names the listed spot', () => {
  let synonyms = 0;
  let duplicates = 0;
  for (let g = 0; g < 10; g++) {
    const s = newGame({ players: 2, seed: `syn-${g}` });
    const rng = new Rng(g);
    while (!s.finished) {
      const placements = legalPlacements(s);
      const p = placements[rng.below(placements.length)];
      const r = p.rotation / 90;
      const listed = p.meeples[rng.below(p.meeples.length)];
      if (listed !== undefined) {
        const segment = ROT_SPOT_LOOKUP[s.currentTile * 4 + r].get(listed);
        const other = [...ROT_SPOT_LOOKUP[s.currentTile * 4 + r]].find(([name, seg]) => seg === segment && name !== listed)?.[0];
        if (other) {
          const copy = s.clone();
          const outcome = playMove(copy, { x: p.x, y: p.y, rotation: p.rotation, meeple: other });
          assert.ok(!('error' in outcome), `"${other}" for "${listed}" refused`);
          assert.equal(outcome.move.meeple, listed);
          synonyms++;
        }
      }
      const duplicate = [1, 2, 3].map((k) => (r + k) % 4).find((k) => !(DISTINCT_ROTATIONS[s.currentTile] & (1 << k)) && ROT_EDGES[s.currentTile * 4 + k] === ROT_EDGES[s.currentTile * 4 + r]);
      if (duplicate !== undefined && !placements.some((q) => q.x === p.x && q.y === p.y && q.rotation === duplicate * 90)) {
        const copy = s.clone();
        const outcome = playMove(copy, { x: p.x, y: p.y, rotation: duplicate * 90, meeple: null });
        assert.ok(!('error' in outcome), `rotation ${duplicate * 90} refused`);
        duplicates++;
      }
      playMove(s, { x: p.x, y: p.y, rotation: p.rotation, meeple: listed ?? null });
    }
  }
  assert.ok(synonyms > 20 && duplicates > 20, `${synonyms} synonyms, ${duplicates} duplicate rotations tried`);
});

test('discards: an unplaceable draw is discarded, recorded, and replays; it may not be placed', () => {
  let found = 0;
  for (let g = 0; g < 400 && found < 3; g++) {
    const s = newGame({ players: 2, seed: `discard-${g}` });
    const rng = new Rng(g);
    let sawDiscard = false;
    while (!s.finished) {
      const moves = legalMoves(s);
      const result = playMove(s, moves[rng.below(moves.length)]);
      assert.ok(!('error' in result));
      if (result.discarded.length) sawDiscard = true;
    }
    if (!sawDiscard) continue;
    found++;
    const record = toRecord(s, ['A', 'B'], `discard-${g}`);
    const k = record.moves.findIndex((m) => 'discard' in m);
    assert.ok(k > 0);
    assert.ok(Buffer.from(replayRecord(record).state.bytes).equals(Buffer.from(s.bytes)));
    // The discarded tile truly fits nowhere at that point.
    const before = replayRecord({ ...record, moves: record.moves.slice(0, k), final: false }).state;
    const type = 'discard' in record.moves[k] ? record.moves[k].discard : '';
    assert.ok(!canPlaceAnywhere(before, 'ABCDEFGHIJKLMNOPQRSTUVWX'.indexOf(type)));
    // Leaving the discard out of the record is caught at the next move that can't be made.
    const skipped = { ...record, moves: [...record.moves.slice(0, k), { tile: type, x: 0, y: -1, rotation: 0, meeple: null }] };
    assert.throws(() => replayRecord(skipped), /fits nowhere/);
  }
  assert.ok(found >= 1, 'some seeded game had a discard');
});

test('the bag: same seed, same order; hideBag leaves only the contents', () => {
  assert.deepEqual(shuffledBag('tessera'), shuffledBag('tessera'));
  assert.notDeepEqual(shuffledBag('tessera'), shuffledBag('tessera2'));
  const a = newGame({ players: 2, seed: 'x1' });
  const b = a.clone();
  // Same current tile, different hidden order behind it.
  const pos = b.h[H_BAGPOS] + 1;
  b.bag.subarray(pos, pos - 1 + b.tilesLeft).reverse();
  assert.ok(!Buffer.from(a.bytes).equals(Buffer.from(b.bytes)));
  assert.ok(Buffer.from(hideBag(a.clone()).bytes).equals(Buffer.from(hideBag(b.clone()).bytes)));
  assert.equal(hideBag(a.clone()).currentTile, a.currentTile);
});

test('the PRNG gives the documented sequence on every machine', () => {
  // sfc32 seeded through FNV-1a + splitmix32 (bot-engine/rng.ts): a fixed vector.
  const rng = new Rng('tessera');
  const first = [rng.nextU32(), rng.nextU32(), rng.nextU32()];
  const again = new Rng('tessera');
  assert.deepEqual([again.nextU32(), again.nextU32(), again.nextU32()], first);
  assert.deepEqual(first, GOLDEN);
});

const GOLDEN = [1000950010, 984587493, 1999754271];

test('a state copies into a preallocated one and stays independent', () => {
  const s = newGame({ players: 3, seed: 'copy' });
  const t = new GameState().copyFrom(s);
  assert.ok(Buffer.from(t.bytes).equals(Buffer.from(s.bytes)));
  const m = randomMove(t, new Rng(1));
  place(t, m.fi, m.r, m.spot);
  assert.notEqual(t.placed, s.placed);
  assert.equal(s.h[H_FRONTIER], 4);
});

test('a follower added to the tile just placed gives the state of placing both at once (or changes nothing), and taking it back restores the state', () => {
  const moves = new Int32Array(MAX_MOVES);
  let added = 0;
  let declined = 0;
  for (let g = 0; g < 6; g++) {
    const s = newGame({ players: 2 + (g % 3), rules: RULE_SETS[g % 3], seed: `follower-after-${g}` });
    const rng = new Rng(300 + g);
    while (!bagEmpty(s)) {
      const n = listMoves(s, moves);
      for (let i = 0; i < n; i++) {
        const spot = moveSpot(moves[i]);
        if (spot < 0) continue;
        const direct = s.clone();
        place(direct, moveFi(moves[i]), moveR(moves[i]), spot);
        const bare = s.clone();
        place(bare, moveFi(moves[i]), moveR(moves[i]), -1);
        const after = bare.clone();
        if (addFollowerToLastPlaced(after, spot)) {
          added++;
          assert.ok(Buffer.from(after.bytes).equals(Buffer.from(direct.bytes)), `game ${g}, move ${i}`);
          takeBackFollowerFromLastPlaced(after, spot);
          assert.ok(Buffer.from(after.bytes).equals(Buffer.from(bare.bytes)), `taken back: game ${g}, move ${i}`);
        } else {
          declined++;
          assert.ok(Buffer.from(after.bytes).equals(Buffer.from(bare.bytes)), 'declined: unchanged');
          // Declined only where the follower's feature was completed: it came straight home.
          assert.equal(direct.followers(s.currentPlayer), bare.followers(s.currentPlayer));
        }
      }
      const m = randomMove(s, rng, 0.5);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
  }
  assert.ok(added > 1000 && declined > 10, `${added} added, ${declined} declined`);
});

test('copying between any two states, early or late, in any order, is byte for byte', () => {
  // copyFrom clears and copies only the live board cells: check it against a full memcpy.
  const snapshots: GameState[] = [];
  for (let g = 0; g < 3; g++) {
    const s = newGame({ players: 2 + g, seed: `copy-${g}` });
    const rng = new Rng(g);
    for (let turn = 0; !bagEmpty(s); turn++) {
      if (turn % 12 === 0) snapshots.push(s.clone());
      const m = randomMove(s, rng, 0.5);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
    snapshots.push(s.clone());
  }
  const target = new GameState();
  const rng = new Rng('copy-order');
  for (let i = 0; i < 200; i++) {
    const from = snapshots[rng.below(snapshots.length)];
    target.copyFrom(from);
    assert.ok(Buffer.from(target.bytes).equals(Buffer.from(from.bytes)), `copy ${i} differs`);
  }
  assert.equal(target.copyFrom(target), target);
});
