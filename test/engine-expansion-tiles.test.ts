// The expansion tile tables in code against docs/RULES.md ("Expansions" section), row by row,
// and what the compiled definitions must hold (every non-city half-edge in exactly one field,
// inns beside roads, counts as the doc's totals say); and the river's R1+R2 rule checked over
// every order of the 10 middle river tiles' shapes, as RULES.md asks the engine's tests to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BASE_GARDENS,
  type ExpansionTileDef,
  INNS_SOURCE,
  INNS_TILES,
  KIND_GARDEN,
  RIVER_SOURCE,
  RIVER_TILES,
  baseCounts,
  expansionBag,
  expansionRotation,
  expansionSpots,
} from '../bot-engine/expansion-tiles.ts';
import { canonicalBag, shuffledBag } from '../bot-engine/rules.ts';
import { type RiverTurn, riverPlacements, riverTurn, riverTurnAllowed } from '../bot-engine/expansions/river.ts';
import { KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD, ROT_EDGES, ROT_EDGE_SEG, ROT_HALF_FIELD, ROT_SPOT_LOOKUP, ROT_SPOT_NAMES, TILES, TILE_NAMES } from '../bot-engine/tiles.ts';

const doc = readFileSync(fileURLToPath(new URL('../docs/RULES.md', import.meta.url)), 'utf8').split('\n');
const cells = (l: string) =>
  l
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
const rowsOf = (pattern: RegExp) => doc.filter((l) => pattern.test(l)).map(cells);
/** The count cell's two numbers: "2 (with the Abbot: 1, and 1 RJg)" → [2, 1]; "0 (with the Abbot: 1)" → [0, 1]. */
function counts(cell: string): [number, number] {
  const plain = parseInt(cell, 10);
  const abbot = /with the Abbot: (\d+)/.exec(cell);
  return [plain, abbot ? parseInt(abbot[1], 10) : plain];
}

test("the river table in code is RULES.md's, cell for cell", () => {
  const rows = rowsOf(/^\| R[A-J]g? \| [^|]+ \| [CRFB]{4} \|/);
  assert.equal(rows.length, RIVER_SOURCE.length);
  for (const [type, count, edges, cities, roads, river, extras, fields] of rows) {
    const src = RIVER_SOURCE.find((s) => s.type === type);
    assert.ok(src, type);
    assert.deepEqual([src.count, src.countWithAbbot], counts(count), `${type} count`);
    const docFields = fields.replace(/^one field: /, '');
    assert.deepEqual([src.edges, src.cities, src.roads, src.river, src.extras, src.fields], [edges, cities, roads, river, extras, docFields], type);
  }
});

test("the Inns & Cathedrals table in code is RULES.md's, cell for cell", () => {
  const rows = rowsOf(/^\| I[A-R]g? \| [^|]+ \| [CRFB]{4} \|/);
  assert.equal(rows.length, INNS_SOURCE.length);
  for (const [type, count, edges, cities, roads, extras, fields] of rows) {
    const src = INNS_SOURCE.find((s) => s.type === type);
    assert.ok(src, type);
    assert.deepEqual([src.count, src.countWithAbbot], counts(count), `${type} count`);
    assert.deepEqual([src.edges, src.cities, src.roads, src.extras, src.fields], [edges, cities, roads, extras, fields], type);
  }
});

test("the base garden types are RULES.md's, and the Abbot moves one copy of each", () => {
  const rows = rowsOf(/^\| [A-Z]g \|/);
  assert.deepEqual(
    rows.map((r) => r[0].slice(0, -1)),
    BASE_GARDENS,
  );
  const plain = baseCounts({ abbot: false, river: false });
  const abbot = baseCounts({ abbot: true, river: false });
  let total = 0;
  for (const n of abbot.values()) total += n;
  assert.equal(total, 72);
  for (const [type, , move] of rows) {
    const m = /(\d+) → \S+ (\d+) \+ \S+ 1/.exec(move);
    assert.ok(m, move);
    assert.equal(plain.get(type.slice(0, -1)), parseInt(m[1], 10), type);
    assert.equal(abbot.get(type.slice(0, -1)), parseInt(m[2], 10), type);
    assert.equal(abbot.get(type), 1, type);
  }
  assert.equal(baseCounts({ abbot: false, river: true }).get('D'), 3, 'the spring replaces a D');
  assert.equal(TILE_NAMES.length, 24, 'the base set is unchanged');
});

const sum = (defs: readonly { count: number; countWithAbbot: number }[], abbot: boolean) => defs.reduce((n, d) => n + (abbot ? d.countWithAbbot : d.count), 0);
const with_ = (defs: typeof RIVER_TILES, kind: number, flag?: 'inn' | 'cathedral' | 'pennant') =>
  defs.reduce((n, d) => n + d.count * (d.segments.some((s) => s.kind === kind && (!flag || s[flag])) ? 1 : 0), 0);

test('the totals RULES.md states: river 12 tiles, 1 monastery; I&C 18 tiles, 6 inns, 2 cathedrals, 1 monastery, 3 pennants', () => {
  assert.equal(sum(RIVER_TILES, false), 12);
  assert.equal(sum(RIVER_TILES, true), 12);
  assert.equal(with_(RIVER_TILES, KIND_MONASTERY), 1);
  assert.equal(sum(INNS_TILES, false), 18);
  assert.equal(sum(INNS_TILES, true), 18);
  assert.equal(with_(INNS_TILES, KIND_ROAD, 'inn'), 6);
  assert.equal(with_(INNS_TILES, KIND_CITY, 'cathedral'), 2);
  assert.equal(with_(INNS_TILES, KIND_MONASTERY), 1);
  assert.equal(with_(INNS_TILES, KIND_CITY, 'pennant'), 3);
  const gardens = [...RIVER_TILES, ...INNS_TILES].filter((d) => d.segments.some((s) => s.kind === KIND_GARDEN));
  assert.deepEqual(
    gardens.map((d) => [d.name, d.count, d.countWithAbbot]),
    [
      ['RJg', 0, 1],
      ['ICg', 0, 1],
      ['IPg', 0, 1],
    ],
  );
});

test('compiled shapes: the tiles RULES.md singles out', () => {
  const def = (name: string) => [...RIVER_TILES, ...INNS_TILES].find((d) => d.name === name)!;
  const fields = (name: string) => def(name).segments.filter((s) => s.kind === KIND_FIELD);
  // Spring and lake: one field all round; the bridge: four fields.
  assert.equal(fields('RA').length, 1);
  assert.equal(fields('RA')[0].sides.length, 8);
  assert.equal(fields('RB').length, 1);
  assert.equal(fields('RF').length, 4);
  assert.deepEqual(def('RF').river, [[0, 2]]);
  // IG: the SE corner holds two fields (E-s = 3 and S-e = 4), both touching the city.
  assert.deepEqual(
    fields('IG').map((f) => [f.sides, f.cities]),
    [
      [[2, 3], [0]],
      [[4, 5, 6, 7], [0]],
    ],
  );
  // IC: a centre field touching no edge, bordering all four cities.
  assert.deepEqual(
    fields('IC').map((f) => [f.sides, f.cities]),
    [[[], [0, 1, 2, 3]]],
  );
  // IO: the inn is beside the east road only; IF: only the N+W city has the pennant.
  assert.deepEqual(
    def('IO')
      .segments.filter((s) => s.kind === KIND_ROAD)
      .map((s) => [s.sides, s.inn]),
    [
      [[1], true],
      [[2], false],
      [[3], false],
    ],
  );
  assert.deepEqual(
    def('IF')
      .segments.filter((s) => s.kind === KIND_CITY)
      .map((s) => [s.sides, s.pennant]),
    [
      [[0, 3], true],
      [[2], false],
    ],
  );
  // IB: two roads, each ending at the monastery.
  assert.equal(def('IB').segments.filter((s) => s.kind === KIND_ROAD).length, 2);
});

test('riverTurn: straight, left and right in the direction of flow', () => {
  assert.equal(riverTurn(3, 1), 0); // in from W, out E
  assert.equal(riverTurn(3, 0), -1); // in from W, out N: flowing east, turning north is left
  assert.equal(riverTurn(3, 2), 1);
  assert.equal(riverTurn(0, 1), -1); // flowing south, turning east is left
});

test('R1 + R2 keep the river clear of itself for every order of 4 turning and 6 straight tiles', () => {
  const DX = [0, 1, 0, -1];
  const DY = [-1, 0, 1, 0];
  let orders = 0;
  let rivers = 0;
  // Each order of shapes: 4 turning (T) and 6 straight (S) tiles between spring and lake.
  for (let mask = 0; mask < 1 << 10; mask++) {
    if (popcount(mask) !== 4) continue;
    orders++;
    const walk = (i: number, x: number, y: number, heading: number, turns: RiverTurn[], taken: Set<string>) => {
      // The open end (x, y) must be empty and touch no river tile but the one just placed.
      const key = `${x},${y}`;
      assert.ok(!taken.has(key), `open end on a tile after ${turns.join(' ')}`);
      const behind = `${x - DX[heading]},${y - DY[heading]}`;
      for (let d = 0; d < 4; d++) {
        const n = `${x + DX[d]},${y + DY[d]}`;
        assert.ok(n === behind || !taken.has(n), `open end touches an earlier river tile after ${turns.join(' ')}`);
      }
      if (i === 10) {
        rivers++; // the lake fits here
        return;
      }
      const next = new Set(taken).add(key);
      const options: RiverTurn[] = mask & (1 << i) ? [-1, 1] : [0];
      let any = false;
      for (const t of options) {
        if (!riverTurnAllowed(turns, t)) continue;
        any = true;
        const h = (heading + t + 4) % 4;
        walk(i + 1, x + DX[h], y + DY[h], h, [...turns, t], next);
      }
      assert.ok(any, `no legal direction after ${turns.join(' ')}`);
    };
    walk(0, 1, 0, 1, [], new Set(['0,0'])); // the spring at (0,0), its river leaving east
  }
  assert.equal(orders, 210);
  assert.ok(rivers > 210);
});

test('R1 alone is not enough: left, straight, left, straight, left comes back (R2 forbids the third left)', () => {
  assert.equal(riverTurnAllowed([-1, 0, -1, 0], -1), false);
  assert.equal(riverTurnAllowed([-1, 0, -1], -1), false); // R1
  assert.equal(riverTurnAllowed([-1, 0, 1, 0], -1), true);
  assert.equal(riverTurnAllowed([-1, 1, 0], -1), true);
});

function popcount(n: number): number {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
}

const OPTION_SETS = [0, 1, 2, 3, 4, 5, 6, 7].map((m) => ({ river: !!(m & 1), innsCathedrals: !!(m & 2), abbot: !!(m & 4) }));

test("the bag with no expansion is the base game's, for every seed", () => {
  const none = OPTION_SETS[0];
  for (let i = 0; i < 300; i++) {
    const seed = `seed-${i}`;
    assert.deepEqual(
      expansionBag(none, seed),
      shuffledBag(seed).map((t) => TILE_NAMES[t]),
    );
  }
  assert.deepEqual(
    expansionBag(none),
    canonicalBag().map((t) => TILE_NAMES[t]),
  );
});

test("bag sizes and sections as RULES.md's combination table says", () => {
  // Tiles to draw: none 71; River 82 (10 river, RB, 71 base); I&C 89; Abbot 71; River + I&C 100; all three 100.
  const expected: Record<string, number> = { '': 71, r: 82, i: 89, a: 71, ri: 100, ra: 82, ia: 89, ria: 100 };
  for (const o of OPTION_SETS) {
    const key = `${o.river ? 'r' : ''}${o.innsCathedrals ? 'i' : ''}${o.abbot ? 'a' : ''}`;
    for (const seed of [undefined, 'x', 'y']) {
      const bag = expansionBag(o, seed);
      assert.equal(bag.length, expected[key], key);
      const riverPart = o.river ? 10 : 0;
      assert.ok(
        bag.slice(0, riverPart).every((n) => /^R[C-J]g?$/.test(n)),
        `${key}: river tiles first`,
      );
      if (o.river) assert.equal(bag[riverPart], 'RB', `${key}: the lake after the river`);
      const land = bag.slice(o.river ? 11 : 0);
      assert.ok(
        land.every((n) => !n.startsWith('R') || /^Rg?$/.test(n)),
        `${key}: no river tile among the land tiles`,
      );
      assert.equal(land.filter((n) => n.endsWith('g')).length, o.abbot ? 8 + (o.innsCathedrals ? 2 : 0) : 0, `${key}: garden tiles`);
      if (o.abbot && o.river) assert.ok(bag.slice(0, 10).includes('RJg'));
      assert.equal(land.filter((n) => n === 'D').length, 3, `${key}: three D besides the start tile or the spring`);
    }
  }
  assert.notDeepEqual(expansionBag(OPTION_SETS[7], 'x'), expansionBag(OPTION_SETS[7], 'y'));
  assert.deepEqual(expansionBag(OPTION_SETS[7], 'x'), expansionBag(OPTION_SETS[7], 'x'));
});

test('river placements equal brute force: every river tile × incoming side × rotation × recent turns', () => {
  // Brute force by geometry: rotate the edge letters, look for B on the incoming side, follow the
  // river by the tile's letters, and judge left/right by the cross product of flow vectors.
  const DX = [0, 1, 0, -1];
  const DY = [-1, 0, 1, 0];
  const histories: RiverTurn[][] = [[], [0], [1], [-1], [1, 0], [-1, 0], [1, -1], [-1, 1], [1, 0, 1], [-1, 0, -1], [1, -1, 0], [-1, 0, 1, 0]];
  let checked = 0;
  for (const def of RIVER_TILES) {
    if (def.name === 'RA') continue; // the spring is laid at the start, never placed
    for (let inSide = 0; inSide < 4; inSide++) {
      for (const previous of histories) {
        const expected: string[] = [];
        for (let k = 0; k < 4; k++) {
          const letters = [0, 1, 2, 3].map((e) => def.edges[(e - k + 4) % 4]); // board edge e shows local edge e - k
          if (letters[inSide] !== 4) continue;
          const others = [0, 1, 2, 3].filter((e) => e !== inSide && letters[e] === 4);
          if (others.length === 0) {
            expected.push(`${k}:-1`);
            continue;
          }
          assert.equal(others.length, 1, `${def.name}: one river through the tile`);
          const leave = others[0];
          // Flow in: from the incoming side towards the centre; flow out: towards `leave`.
          const fx = -DX[inSide];
          const fy = -DY[inSide];
          const cross = fx * DY[leave] - fy * DX[leave]; // y grows southwards: > 0 is a right turn
          const turn = (cross === 0 ? 0 : cross > 0 ? 1 : -1) as RiverTurn;
          let ok = true;
          if (turn !== 0 && previous.length > 0 && previous[previous.length - 1] === turn) ok = false;
          const turns = previous.filter((t) => t !== 0);
          if (turn !== 0 && turns.length >= 2 && turns.at(-1) === turn && turns.at(-2) === turn) ok = false;
          if (ok) expected.push(`${k}:${leave}`);
        }
        const got = riverPlacements(def.river, inSide, previous).map((p) => `${p.rotation}:${p.out}`);
        assert.deepEqual(got.sort(), expected.sort(), `${def.name} in ${inSide} after ${previous.join(',')}`);
        checked++;
      }
    }
  }
  assert.equal(checked, 10 * 4 * histories.length);
});

test("spot names: IG's split corner by half-edge only, IC's centre, gardens; the river has none", () => {
  const def = (name: string) => [...RIVER_TILES, ...INNS_TILES].find((d) => d.name === name)!;
  const ig = expansionSpots(def('IG'), 0);
  assert.equal(ig.lookup.has('field:SE'), false, 'two fields meet at SE');
  assert.equal(ig.lookup.get('field:E-s'), ig.lookup.get('field:NE'));
  assert.equal(ig.lookup.get('field:S-e'), ig.lookup.get('field:SW'));
  assert.notEqual(ig.lookup.get('field:E-s'), ig.lookup.get('field:S-e'));
  assert.deepEqual(ig.names, ['city:N', 'field:NE', 'field:SW']);
  // Turned a quarter: the split corner is SW, the city on E.
  const ig90 = expansionSpots(def('IG'), 1);
  assert.equal(ig90.lookup.has('field:SW'), false);
  assert.deepEqual(ig90.names, ['city:E', 'field:SE', 'field:NE']); // the other field reaches NE by N-e (E-n is city)
  assert.deepEqual(expansionSpots(def('IC'), 0).names, ['city:N', 'city:E', 'city:S', 'city:W', 'field:centre']);
  assert.deepEqual(expansionSpots(def('ICg'), 3).names.at(-1), 'garden');
  assert.ok([...expansionSpots(def('RC'), 0).lookup.keys()].every((n) => !n.startsWith('river')));
  assert.deepEqual(expansionSpots(def('RE'), 0).names, ['road:S', 'field:NE', 'field:SE', 'field:SW', 'monastery']);
});

test("spot names of base tiles written as expansion definitions are the base engine's, every rotation", () => {
  TILES.forEach((base, t) => {
    const def = baseAsExpansion(t);
    for (let k = 0; k < 4; k++) {
      const exp = expansionSpots(def, k);
      assert.deepEqual(exp.names, ROT_SPOT_NAMES[t * 4 + k], `${base.name} at ${k * 90}`);
      for (const [name, seg] of ROT_SPOT_LOOKUP[t * 4 + k]) assert.equal(exp.lookup.get(name), seg, `${base.name} ${name}`);
    }
  });
});

test("rotated tables: the base tiles written as expansion definitions give tiles.ts's tables; every expansion tile is consistent", () => {
  TILES.forEach((base, t) => {
    const def = baseAsExpansion(t);
    for (let k = 0; k < 4; k++) {
      const r = expansionRotation(def, k);
      const tr = t * 4 + k;
      let packed2 = 0;
      for (let e = 0; e < 4; e++) packed2 |= ((r.edges >> (e * 3)) & 7) << (e * 2);
      assert.equal(packed2, ROT_EDGES[tr], `${base.name} edges at ${k * 90}`);
      assert.deepEqual([...r.edgeSeg], [...ROT_EDGE_SEG.subarray(tr * 4, tr * 4 + 4)], `${base.name} edge segments`);
      assert.deepEqual([...r.halfField], [...ROT_HALF_FIELD.subarray(tr * 8, tr * 8 + 8)], `${base.name} half fields`);
    }
  });
  for (const def of [...RIVER_TILES, ...INNS_TILES]) {
    for (let k = 0; k < 4; k++) {
      const r = expansionRotation(def, k);
      for (let e = 0; e < 4; e++) {
        const code = (r.edges >> (e * 3)) & 7;
        // City and road edges carry their segment; field and river edges carry none, and their two
        // halves carry fields; city edges' halves carry none.
        assert.equal(r.edgeSeg[e] >= 0, code === 1 || code === 2, `${def.name} edge ${e} at ${k * 90}`);
        for (const h of [2 * e, 2 * e + 1]) assert.equal(r.halfField[h] >= 0, code !== 1, `${def.name} half ${h} at ${k * 90}`);
      }
    }
  }
});

/** A base tile written as an expansion definition: corners → half-edges as the expansion compiler does. */
function baseAsExpansion(t: number): ExpansionTileDef {
  const HALF_CORNER = [3, 0, 0, 1, 1, 2, 2, 3];
  const base = TILES[t];
  return {
    name: base.name,
    set: 'abbot',
    count: base.count,
    countWithAbbot: base.count,
    edges: base.edges,
    river: [],
    segments: base.segments.map((s) => ({
      kind: s.kind,
      sides: s.kind === KIND_FIELD ? [0, 1, 2, 3, 4, 5, 6, 7].filter((h) => base.edges[h >> 1] !== 1 && s.sides.includes(HALF_CORNER[h])) : s.sides,
      pennant: s.pennant,
      inn: false,
      cathedral: false,
      cities: s.cities,
    })),
  };
}
