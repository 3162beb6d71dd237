// The expansion types in the flat (type, rotation) tables (appended after X): placement fits
// checked against a brute force on edge letters, symmetric rotations, spot lookups for the new
// spot names, gardens as their own kind. The base types keep their indices and rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPANSION_TILES, RIVER_SOURCE, INNS_SOURCE, GARDEN_SOURCE } from '../bot-engine/expansion-tiles.ts';
import {
  DISTINCT_ROTATIONS,
  FIT,
  HAS_CLOISTER,
  HAS_MONASTERY,
  KIND_FIELD,
  KIND_GARDEN,
  KIND_MONASTERY,
  MAX_SEGMENTS,
  ROT_EDGES,
  ROT_RIVER,
  ROT_SPOT_LOOKUP,
  ROT_SPOT_NAMES,
  SEG_COUNT,
  SEG_KIND,
  SEG_MODS,
  SEG_OPEN,
  TILE_NAMES,
  TILE_TYPES,
  TYPE_COUNT,
  TYPE_NAMES,
  tileIndex,
} from '../bot-engine/tiles.ts';
import { MOD_CATHEDRAL, MOD_INN } from '../bot-engine/feature-modifiers.ts';

const LETTER = { C: 1, R: 2, F: 3, B: 3 } as Record<string, number>; // a river edge reads as field
const sourceOf = (name: string) => [...GARDEN_SOURCE, ...RIVER_SOURCE, ...INNS_SOURCE].find((s) => s.type === name)!;

/** The letter on board edge d of `edges` (rotation 0, N E S W) turned k quarter turns clockwise. */
const letterAt = (edges: string, k: number, d: number) => edges[(d - k + 4) % 4];

test('types: the base types keep indices 0…23, the 38 expansion types follow (62 in all)', () => {
  assert.deepEqual(TYPE_NAMES.slice(0, TILE_TYPES), TILE_NAMES);
  assert.deepEqual(TILE_NAMES.join(''), 'ABCDEFGHIJKLMNOPQRSTUVWX');
  // 24 base + 8 base gardens; river RA…RJ (10) + RJg; Inns & Cathedrals IA…IR without II (17) + ICg, IPg.
  assert.equal(TYPE_COUNT, 24 + 8 + 11 + 19);
  assert.deepEqual(
    TYPE_NAMES.slice(TILE_TYPES),
    EXPANSION_TILES.map((d) => d.name),
  );
  assert.equal(new Set(TYPE_NAMES).size, TYPE_COUNT);
  for (const name of ['Eg', 'RA', 'RJg', 'IA', 'IR', 'ICg']) assert.equal(TYPE_NAMES[tileIndex(name)], name);
  assert.equal(tileIndex('II'), -1);
});

test('FIT of every expansion type equals a brute force over rotations and edge letters', () => {
  for (let t = TILE_TYPES; t < TYPE_COUNT; t++) {
    const { edges } = sourceOf(TYPE_NAMES[t]);
    for (let code = 0; code < 256; code++) {
      // Rotations whose letters match every constrained side, one per symmetry class.
      let fitting = 0;
      for (let k = 0; k < 4; k++) {
        let ok = true;
        for (let d = 0; d < 4; d++) {
          const want = (code >> (d * 2)) & 3;
          if (want !== 0 && want !== LETTER[letterAt(edges, k, d)]) ok = false;
        }
        if (ok) fitting |= 1 << k;
      }
      assert.equal(FIT[t * 256 + code] & ~fitting, 0, `${TYPE_NAMES[t]} code ${code}: listed a rotation that does not fit`);
      // Every fitting rotation is listed or is a symmetric duplicate of a listed one.
      for (let k = 0; k < 4; k++) {
        if (!(fitting & (1 << k)) || FIT[t * 256 + code] & (1 << k)) continue;
        assert.equal(DISTINCT_ROTATIONS[t] & (1 << k), 0, `${TYPE_NAMES[t]} code ${code}: rotation ${k} fits but is left out`);
      }
    }
  }
});

test('symmetric rotations of expansion types: only true duplicates are dropped', () => {
  const distinct = (name: string) => [0, 1, 2, 3].filter((k) => DISTINCT_ROTATIONS[tileIndex(name)] & (1 << k)).length;
  // RA (FBFF, one field): the river edge breaks every symmetry, 4. RG (FBFB): 180° is itself, 2.
  assert.equal(distinct('RA'), 4);
  assert.equal(distinct('RG'), 2);
  // IA (CCCC, one cathedral city) is the same every way: 1. IC (four cities, a centre field): 1.
  assert.equal(distinct('IA'), 1);
  assert.equal(distinct('IC'), 1);
  // IR (roads N-W and E-S, fields NW, SE, NE+SW) and IK (roads N, S; city E+W): 180° only, 2.
  assert.equal(distinct('IR'), 2);
  assert.equal(distinct('IK'), 2);
  // IP (road W-E with an inn) like U: 2; IO (junction, the inn on one road only): 4.
  assert.equal(distinct('IP'), 2);
  assert.equal(distinct('IO'), 4);
  // A garden twin keeps its plain type's symmetry: Ug as U (2), Hg as H (2).
  assert.equal(distinct('Ug'), 2);
  assert.equal(distinct('Hg'), 2);
});

test('river edges: ROT_RIVER marks exactly the B edges at every rotation, and ROT_EDGES reads them as field', () => {
  for (let t = TILE_TYPES; t < TYPE_COUNT; t++) {
    const { edges } = sourceOf(TYPE_NAMES[t]);
    for (let k = 0; k < 4; k++) {
      for (let d = 0; d < 4; d++) {
        const letter = letterAt(edges, k, d);
        assert.equal((ROT_RIVER[t * 4 + k] >> d) & 1, letter === 'B' ? 1 : 0, `${TYPE_NAMES[t]} rot ${k} edge ${d}`);
        assert.equal((ROT_EDGES[t * 4 + k] >> (d * 2)) & 3, LETTER[letter]);
      }
    }
  }
  for (let t = 0; t < TILE_TYPES; t++) for (let k = 0; k < 4; k++) assert.equal(ROT_RIVER[t * 4 + k], 0);
});

test('gardens are their own kind, last on the tile, counting 8 neighbours like a monastery', () => {
  for (const name of ['Eg', 'Hg', 'Ig', 'Mg', 'Ng', 'Rg', 'Ug', 'Vg', 'RJg', 'ICg', 'IPg']) {
    const t = tileIndex(name);
    const last = t * MAX_SEGMENTS + SEG_COUNT[t] - 1;
    assert.equal(SEG_KIND[last], KIND_GARDEN, name);
    assert.equal(SEG_OPEN[last], 8, name);
    assert.equal(HAS_CLOISTER[t], 1, name);
    assert.equal(HAS_MONASTERY[t], 0, name);
    // The twin has its plain type's segments plus the garden.
    assert.equal(SEG_COUNT[t], SEG_COUNT[tileIndex(name.slice(0, -1))] + 1, name);
    for (let k = 0; k < 4; k++) assert.equal(ROT_SPOT_LOOKUP[t * 4 + k].get('garden'), SEG_COUNT[t] - 1);
  }
  for (const name of ['A', 'B', 'RE', 'IB']) {
    const t = tileIndex(name);
    assert.equal(SEG_KIND[t * MAX_SEGMENTS + SEG_COUNT[t] - 1], KIND_MONASTERY, name);
    assert.equal(HAS_CLOISTER[t], 1, name);
  }
});

test('spot lookups: half-edge and centre field names, corners only where one field lies', () => {
  const ig = tileIndex('IG');
  // IG at 0: city N; field A on E-n E-s, field B on S-e S-w W-s W-n. SE holds both: no `field:SE`.
  const at0 = ROT_SPOT_LOOKUP[ig * 4];
  assert.equal(at0.get('field:SE'), undefined);
  assert.notEqual(at0.get('field:E-s'), at0.get('field:S-e'));
  assert.equal(at0.get('field:NE'), at0.get('field:E-s'));
  assert.equal(at0.get('field:SW'), at0.get('field:S-e'));
  // Turned 90°: the split corner moves to SW.
  const at90 = ROT_SPOT_LOOKUP[ig * 4 + 1];
  assert.equal(at90.get('field:SW'), undefined);
  assert.notEqual(at90.get('field:S-w'), at90.get('field:W-n'));
  // IC: four cities around a field that touches no edge.
  const ic = tileIndex('IC');
  const centre = ROT_SPOT_LOOKUP[ic * 4].get('field:centre')!;
  assert.equal(SEG_KIND[ic * MAX_SEGMENTS + centre], KIND_FIELD);
  assert.equal(ROT_SPOT_NAMES[ic * 4][centre], 'field:centre');
  // A river tile names its fields by corner, and the river has no spot.
  const rg = tileIndex('RG');
  assert.deepEqual(
    [...ROT_SPOT_LOOKUP[rg * 4].keys()].filter((n) => !n.startsWith('field:')),
    [],
  );
});

test('inn and cathedral flags sit on the segments RULES.md names', () => {
  const mods = (name: string) => {
    const t = tileIndex(name);
    return Array.from(SEG_MODS.subarray(t * MAX_SEGMENTS, t * MAX_SEGMENTS + SEG_COUNT[t]));
  };
  const ia = tileIndex('IA');
  assert.equal(SEG_MODS[ia * MAX_SEGMENTS + ROT_SPOT_LOOKUP[ia * 4].get('city:N')!], MOD_CATHEDRAL);
  // IO: roads E; S; W, the inn on E only.
  const io = tileIndex('IO');
  assert.equal(SEG_MODS[io * MAX_SEGMENTS + ROT_SPOT_LOOKUP[io * 4].get('road:E')!], MOD_INN);
  assert.equal(SEG_MODS[io * MAX_SEGMENTS + ROT_SPOT_LOOKUP[io * 4].get('road:S')!], 0);
  // 6 inns and 2 cathedrals in the 18 tiles (IPg's inn is IP's), none on base or river types.
  let inns = 0;
  let cathedrals = 0;
  for (const name of ['IA', 'IB', 'IC', 'ID', 'IE', 'IF', 'IG', 'IH', 'IJ', 'IK', 'IL', 'IM', 'IN', 'IO', 'IP', 'IQ', 'IR']) {
    for (const m of mods(name)) {
      if (m & MOD_INN) inns += 1;
      if (m & MOD_CATHEDRAL) cathedrals += name === 'IA' ? 2 : 1; // IA comes twice
    }
  }
  assert.deepEqual([inns, cathedrals], [6, 2]);
  for (let t = 0; t < TYPE_COUNT; t++) if (!TYPE_NAMES[t].startsWith('I')) assert.deepEqual(mods(TYPE_NAMES[t]).filter(Boolean), [], TYPE_NAMES[t]);
});
