// The expansions' scoring rules as data (bot-engine/feature-modifiers.ts), each number derived
// in a comment from RULES.md's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND_GARDEN } from '../bot-engine/expansion-tiles.ts';
import {
  FIGURE_ABBOT,
  FIGURE_FOLLOWER,
  FIGURE_LARGE,
  MOD_CATHEDRAL,
  MOD_INN,
  abbotReturnPoints,
  cloisterPoints,
  figureMayStand,
  featurePoints,
  majorityOf,
  strengthOf,
  strengthWord,
} from '../bot-engine/feature-modifiers.ts';
import { KIND_CITY, KIND_FIELD, KIND_MONASTERY, KIND_ROAD } from '../bot-engine/tiles.ts';

test("no modifier: the base game's points (roads 1 a tile; cities 2 a tile and pennant complete, 1 and 1 at the end; tinyCity)", () => {
  for (let tiles = 1; tiles <= 30; tiles++) {
    for (let pennants = 0; pennants <= 10; pennants++) {
      for (const tiny of [false, true]) {
        assert.equal(featurePoints(KIND_ROAD, 0, tiles, 0, true, tiny), tiles);
        assert.equal(featurePoints(KIND_ROAD, 0, tiles, 0, false, tiny), tiles);
        assert.equal(featurePoints(KIND_CITY, 0, tiles, pennants, true, tiny), tiny && tiles === 2 ? 2 : 2 * tiles + 2 * pennants);
        assert.equal(featurePoints(KIND_CITY, 0, tiles, pennants, false, tiny), tiles + pennants);
      }
    }
  }
});

test('an inn: a completed road of 4 tiles scores 8, unfinished at the end 0; two inns the same', () => {
  // 4 tiles × 2 a tile = 8 (RULES.md: "2 a tile", "one inn or several").
  assert.equal(featurePoints(KIND_ROAD, MOD_INN, 4, 0, true, false), 8);
  // Unfinished at the end: 0, though without the inn it would score 4.
  assert.equal(featurePoints(KIND_ROAD, MOD_INN, 4, 0, false, false), 0);
  // A loop of 3 tiles through an inn tile: 3 distinct tiles × 2 = 6 (each tile once).
  assert.equal(featurePoints(KIND_ROAD, MOD_INN, 3, 0, true, false), 6);
  // A cathedral flag on a road means nothing (roads gather only inns).
  assert.equal(featurePoints(KIND_ROAD, MOD_CATHEDRAL, 4, 0, true, false), 4);
});

test('a cathedral: a completed city of 6 tiles and 2 pennants scores 24, unfinished 0; tinyCity never applies', () => {
  // 6 × 3 + 2 × 3 = 24; both cathedrals in one city: still 3 a tile.
  assert.equal(featurePoints(KIND_CITY, MOD_CATHEDRAL, 6, 2, true, false), 24);
  assert.equal(featurePoints(KIND_CITY, MOD_CATHEDRAL, 6, 2, false, false), 0);
  // A city of the cathedral tile and 4 others: 5 × 3 = 15.
  assert.equal(featurePoints(KIND_CITY, MOD_CATHEDRAL, 5, 0, true, true), 15);
  // (Two tiles with a cathedral cannot happen; were it asked, tinyCity does not cut it: 2 × 3 = 6.)
  assert.equal(featurePoints(KIND_CITY, MOD_CATHEDRAL, 2, 0, true, true), 6);
  // An inn flag on a city means nothing: 3 tiles, 1 pennant, complete = 3 × 2 + 2 = 8.
  assert.equal(featurePoints(KIND_CITY, MOD_INN, 3, 1, true, false), 8);
});

test('monasteries and gardens: 9 complete, 1 + neighbours otherwise; taking the abbot back scores the same', () => {
  assert.equal(cloisterPoints(0), 9);
  // A garden with 5 neighbours (3 missing): 1 + 5 = 6, at the end or when its abbot is taken back.
  assert.equal(cloisterPoints(3), 6);
  assert.equal(cloisterPoints(8), 1);
  assert.throws(() => featurePoints(KIND_GARDEN, 0, 1, 0, true, false), /cloisterPoints/);
  assert.throws(() => featurePoints(KIND_MONASTERY, 0, 1, 0, true, false), /cloisterPoints/);
  assert.throws(() => featurePoints(KIND_FIELD, 0, 1, 0, true, false), /farm/);
});

test('the large follower counts two in a majority; points are never doubled', () => {
  const red = 0;
  const blue = 1;
  // Red's large follower against Blue's two followers: 2–2, both win.
  let w = strengthWord(red, FIGURE_LARGE) + strengthWord(blue, FIGURE_FOLLOWER) + strengthWord(blue, FIGURE_FOLLOWER);
  assert.equal(majorityOf(w), 0b11);
  // Against one follower: 2–1, Red alone.
  w = strengthWord(red, FIGURE_LARGE) + strengthWord(blue, FIGURE_FOLLOWER);
  assert.equal(majorityOf(w), 0b01);
  // Nobody: no winner.
  assert.equal(majorityOf(0), 0);
  // An abbot alone on a garden makes its owner the scorer.
  assert.equal(majorityOf(strengthWord(4, FIGURE_ABBOT)), 1 << 4);
});

test('six players, each with 7 followers and the large one on one feature (joined roots add), never carry', () => {
  let w = 0;
  for (let p = 0; p < 6; p++) {
    for (let i = 0; i < 7; i++) w += strengthWord(p, FIGURE_FOLLOWER);
    w += strengthWord(p, FIGURE_LARGE);
  }
  for (let p = 0; p < 6; p++) assert.equal(strengthOf(w, p), 9);
  assert.equal(majorityOf(w), 0b111111);
  // One follower moves from the fifth player's side to the sixth: 10 against 8 and 9s, the sixth alone.
  w = w - strengthWord(4, FIGURE_FOLLOWER) + strengthWord(5, FIGURE_FOLLOWER);
  assert.equal(strengthOf(w, 5), 10);
  assert.equal(strengthOf(w, 4), 8);
  assert.equal(majorityOf(w), 1 << 5);
});

test('the abbot: only on a monastery or garden; followers never on a garden; taken back only while unfinished', () => {
  for (const figure of [FIGURE_FOLLOWER, FIGURE_LARGE]) {
    assert.deepEqual(
      [KIND_CITY, KIND_ROAD, KIND_FIELD, KIND_MONASTERY, KIND_GARDEN].map((k) => figureMayStand(figure, k)),
      [true, true, true, true, false],
    );
  }
  assert.deepEqual(
    [KIND_CITY, KIND_ROAD, KIND_FIELD, KIND_MONASTERY, KIND_GARDEN].map((k) => figureMayStand(FIGURE_ABBOT, k)),
    [false, false, false, true, true],
  );
  // A garden with 6 of 8 neighbours, the tile just placed among them: 1 + 6 = 7.
  assert.equal(abbotReturnPoints(2), 7);
  // The placed tile completes it: no taking back (it scores 9 in the scoring step).
  assert.equal(abbotReturnPoints(0), -1);
  // Alone in a field: 1 + 0 = 1.
  assert.equal(abbotReturnPoints(8), 1);
});
