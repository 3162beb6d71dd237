// The River played: the spring instead of the start tile, the bag's sections (river tiles, the
// lake, then land), placements at the open end under R1 + R2 against a geometric brute force,
// fields joined across river half-edges, replay drawing only from the current section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalPlacements, newGame, playMove } from '../bot-engine/game.ts';
import { type GameState, cellOf, neighbour } from '../bot-engine/state.ts';
import { type Rules, bagEmpty, discardUnplaceable, drawType, find, hideBag, place } from '../bot-engine/rules.ts';
import { RIVER_SOURCE } from '../bot-engine/expansion-tiles.ts';
import { DISTINCT_ROTATIONS, MAX_SEGMENTS, ROT_SPOT_LOOKUP, SEG_COUNT, TYPE_NAMES, edgeIndex, groups, tileIndex } from '../bot-engine/tiles.ts';
import { BASE_SOURCE } from '../bot-engine/base-tiles.ts';
import { INNS_SOURCE, GARDEN_SOURCE } from '../bot-engine/expansion-tiles.ts';
import { type RiverTurn, riverTurnAllowed } from '../bot-engine/expansions/river.ts';
import { playRandomGame, randomMove } from '../bot-engine/playout.ts';
import { Rng } from '../bot-engine/rng.ts';
import { RecordError, replayRecord, toRecord } from '../bot-engine/record.ts';

const RIVER: Rules = { tinyCity: false, farmers: '3rd', river: true };
const isRiver = (t: number) => TYPE_NAMES[t].startsWith('R') && TYPE_NAMES[t].length > 1;

test('the spring replaces the start tile; the bag: 10 river tiles, the lake, then the 71 land tiles', () => {
  const s = newGame({ players: 2, rules: RIVER, seed: 'sections' });
  assert.equal(TYPE_NAMES[s.ptype[0]], 'RA');
  assert.deepEqual([s.px[0], s.py[0], s.prot[0]], [0, 0, 0]);
  assert.equal(s.tilesLeft, 82);
  const bag = Array.from(s.bag.subarray(0, 82), (t) => TYPE_NAMES[t]);
  assert.deepEqual(bag.slice(0, 10).sort(), ['RC', 'RD', 'RE', 'RF', 'RG', 'RG', 'RH', 'RI', 'RJ', 'RJ']);
  assert.equal(bag[10], 'RB');
  assert.ok(
    bag.slice(11).every((n) => n.length === 1),
    'land tiles after the lake',
  );
  assert.equal(bag.slice(11).filter((n) => n === 'D').length, 3, 'one D went back to the box');
  // hideBag sorts each section apart: the river still comes first.
  const hidden = hideBag(s.clone());
  assert.equal(hidden.bag[10], tileIndex('RB'));
  assert.ok(Array.from(hidden.bag.subarray(1, 10)).every(isRiver));
});

/** A tile's edge letters (B explicit) and river runs, from the source rows, turned k quarter turns. */
const ROWS = new Map([...BASE_SOURCE, ...GARDEN_SOURCE, ...RIVER_SOURCE, ...INNS_SOURCE].map((r) => [r.type, r]));
function letter(type: number, k: number, d: number): string {
  return ROWS.get(TYPE_NAMES[type])!.edges[(d - k + 4) % 4];
}
function runs(type: number, k: number): number[][] {
  const row = ROWS.get(TYPE_NAMES[type])!;
  return 'river' in row ? groups(row.river as string).map((g) => g.split('-').map((e) => (edgeIndex(e) + k) % 4)) : [];
}
const STEP = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];
/** The turn of flow entering by side `inSide` and leaving by `out`, from the flow vectors' cross product (y points south). */
function geometricTurn(inSide: number, out: number): RiverTurn {
  const [hx, hy] = STEP[(inSide + 2) % 4];
  const [ox, oy] = STEP[out];
  const cross = hx * oy - hy * ox;
  return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

/** Every (x, y, rotation) a river tile may take, by brute force: each empty cell beside a tile ×
 * distinct rotation whose letters equal every neighbour's facing letter (B only against B), one
 * river edge against a placed tile's river edge, and a turn R1 + R2 allow after the turns of the
 * river tiles placed so far, all found from the board's geometry. */
function bruteForceRiver(s: GameState): Set<string> {
  const type = s.currentTile;
  // The river so far: follow the placed river tiles in order, recording each one's turn.
  const turns: RiverTurn[] = [];
  for (let p = 1; p < s.placed; p++) {
    if (!isRiver(s.ptype[p])) continue;
    let inSide = -1;
    for (let d = 0; d < 4; d++) {
      const q = s.cellTile[neighbour(s.pcell[p], d)] - 1;
      if (q >= 0 && q < p && letter(s.ptype[p], s.prot[p], d) === 'B' && letter(s.ptype[q], s.prot[q], (d + 2) % 4) === 'B') inSide = d;
    }
    const run = runs(s.ptype[p], s.prot[p]).find((r) => r.includes(inSide))!;
    turns.push(run.length === 1 ? 0 : geometricTurn(inSide, run[1 - run.indexOf(inSide)]));
  }
  const out = new Set<string>();
  for (let p = 0; p < s.placed; p++) {
    for (const [dx, dy] of STEP) {
      const x = s.px[p] + dx;
      const y = s.py[p] + dy;
      if (s.cellTile[cellOf(x, y)]) continue;
      for (let k = 0; k < 4; k++) {
        if (!(DISTINCT_ROTATIONS[type] & (1 << k))) continue;
        let ok = true;
        let inSide = -1;
        for (let d = 0; d < 4; d++) {
          const q = s.cellTile[neighbour(cellOf(x, y), d)] - 1;
          if (q < 0) continue;
          const theirs = letter(s.ptype[q], s.prot[q], (d + 2) % 4);
          if (theirs !== letter(type, k, d)) ok = false;
          if (theirs === 'B') inSide = d;
        }
        if (!ok || inSide < 0) continue;
        const run = runs(type, k).find((r) => r.includes(inSide))!;
        const turn = run.length === 1 ? 0 : geometricTurn(inSide, run[1 - run.indexOf(inSide)]);
        if (riverTurnAllowed(turns, turn)) out.add(`${x},${y},${k * 90}`);
      }
    }
  }
  return out;
}

test('river placements equal a geometric brute force, tile by tile, over 300 river sections', () => {
  let checked = 0;
  for (let g = 0; g < 300; g++) {
    const s = newGame({ players: 2 + (g % 4), rules: RIVER, seed: `river-${g}` });
    const rng = new Rng(g);
    while (isRiver(s.currentTile)) {
      const listed = new Set(legalPlacements(s).map((p) => `${p.x},${p.y},${p.rotation}`));
      assert.deepEqual(listed, bruteForceRiver(s), `game ${g}, river tile ${s.placed}`);
      assert.ok(listed.size > 0, 'R1 + R2 always leave a placement');
      checked++;
      const m = randomMove(s, rng);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
    assert.equal(s.placed, 12, 'all 12 river tiles placed, none discarded');
  }
  assert.equal(checked, 300 * 11);
});

// RA's river leaves east, so the open end is (1,0), entered from W. RH (river E-S) turned 90°
// runs W-S: flowing east, out south: a right turn; the open end moves to (1,1), entered from N.
// RI (river S-W) turned 90° runs W-N, entered from N out W: flowing south, out west: right
// again (R1 refuses it, though its edges match); turned 180° it runs N-E: a left turn, allowed.
test('a river tile turning the same way as the turn before it is refused with a clear error', () => {
  const s = newGame({ players: 2, rules: RIVER, seed: 'turns' });
  drawType(s, tileIndex('RH'));
  assert.ok(!('error' in playMove(s, { x: 1, y: 0, rotation: 90, meeple: null }, false)));
  drawType(s, tileIndex('RI'));
  const before = Buffer.from(s.bytes);
  const again = playMove(s, { x: 1, y: 1, rotation: 90, meeple: null }, false);
  assert.ok('error' in again && /must extend the river at its open end \(1,1\)/.test(again.error), JSON.stringify(again));
  assert.ok(Buffer.from(s.bytes).equals(before), 'a refused move changes nothing');
  assert.deepEqual(
    legalPlacements(s).map((p) => [p.x, p.y, p.rotation]),
    [[1, 1, 180]],
  );
  assert.ok(!('error' in playMove(s, { x: 1, y: 1, rotation: 180, meeple: null }, false)));
});

test('fields join across river half-edges: the banks are one field round the spring, two along a straight river', () => {
  const s = newGame({ players: 2, rules: RIVER, seed: 'banks' });
  drawType(s, tileIndex('RG'));
  assert.ok(!('error' in playMove(s, { x: 1, y: 0, rotation: 0, meeple: null }, false))); // RG: river W-E
  const rg = tileIndex('RG');
  const north = find(s, MAX_SEGMENTS + ROT_SPOT_LOOKUP[rg * 4].get('field:NE')!);
  const south = find(s, MAX_SEGMENTS + ROT_SPOT_LOOKUP[rg * 4].get('field:SE')!);
  // RA's one field runs round the river's end and touches both of RG's banks.
  assert.equal(north, south);
  assert.equal(find(s, 0 + ROT_SPOT_LOOKUP[tileIndex('RA') * 4].get('field:NE')!), north);
  assert.equal(SEG_COUNT[rg], 2);
});

test('replay draws only from the current section: a land tile before the lake is refused', () => {
  const s = newGame({ players: 2, rules: RIVER, seed: 'replay' });
  playRandomGame(s, new Rng(7));
  const record = toRecord(s, ['a', 'b'], 'replay');
  assert.deepEqual(record.rules, { tinyCity: false, farmers: '3rd', river: true });
  const replay = replayRecord(record);
  assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)));
  const early = { ...record, moves: [{ tile: 'U', x: 1, y: 0, rotation: 0, meeple: null }] };
  assert.throws(
    () => replayRecord(early),
    (e: unknown) => e instanceof RecordError && /may not be drawn yet: the river tiles come first/.test(e.message),
  );
  const lakeFirst = { ...record, moves: [{ tile: 'RB', x: 1, y: 0, rotation: 90, meeple: null }] };
  assert.throws(
    () => replayRecord(lakeFirst),
    (e: unknown) => e instanceof RecordError && /may not be drawn yet/.test(e.message),
  );
});

test('random games with the River (and with Inns & Cathedrals), 2–6 seats, every rule combination, replay to the same state', () => {
  for (const tinyCity of [false, true]) {
    for (const farmers of ['1st', '2nd', '3rd'] as const) {
      for (const inns of [false, true]) {
        for (let players = 2; players <= (inns ? 6 : 5); players++) {
          const rules: Rules = { tinyCity, farmers, river: true, ...(inns ? { innsCathedrals: true } : {}) };
          const seed = `river-${tinyCity}-${farmers}-${inns}-${players}`;
          const s = newGame({ players, rules, seed });
          playRandomGame(s, new Rng(players));
          const names = Array.from({ length: players }, (_, p) => `p${p}`);
          const replay = replayRecord(JSON.parse(JSON.stringify(toRecord(s, names, seed))));
          assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)), seed);
          assert.deepEqual(
            Object.values(replay.scores),
            names.map((_, p) => s.score(p)),
          );
          assert.ok(bagEmpty(s) && s.finished);
        }
      }
    }
  }
});
