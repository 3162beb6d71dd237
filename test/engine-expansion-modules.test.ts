// Each expansion is one module (bot-engine/expansions/) that alone keeps its block of header slots
// and its hooks: the blocks tile the expansions' part of the header; an expansion that is off
// leaves its block untouched through a whole game (the core writes none of it); the tables the
// core reads hooks from hold each figure and tile type once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newGame } from '../bot-engine/game.ts';
import { H_EXPANSIONS, MAX_SEATS, type GameState } from '../bot-engine/state.ts';
import { bagEmpty, discardUnplaceable, place } from '../bot-engine/rules.ts';
import { randomMove } from '../bot-engine/playout.ts';
import { Rng } from '../bot-engine/rng.ts';
import { IS_RIVER, TYPE_COUNT } from '../bot-engine/tiles.ts';
import { EXPANSIONS, FIGURES, FIGURE_OPTION, TILE_RULES } from '../bot-engine/expansions/index.ts';
import { EXPANSION_HEADER_INTS, EXPANSION_KEYS, type ExpansionKey, FIGURE_KINDS, FIGURE_NAMES, headerBlock, optionBit } from '../bot-engine/expansions/options.ts';

const BLOCK: Record<ExpansionKey, number> = { river: 7, innsCathedrals: 0, abbot: MAX_SEATS };

test('the expansions’ header blocks lie end to end after the core’s slots, one per key, in option-bit order', () => {
  let next = 0;
  for (const [i, key] of EXPANSION_KEYS.entries()) {
    assert.equal(headerBlock(key, BLOCK[key]), next, key);
    assert.equal(optionBit(key), 1 << i);
    next += BLOCK[key];
  }
  assert.equal(next, EXPANSION_HEADER_INTS);
  assert.throws(() => headerBlock('river', 8), /keeps 7 header slots/);
  assert.deepEqual(
    EXPANSIONS.map((e) => e.key),
    [...EXPANSION_KEYS],
  );
});

function block(s: GameState, key: ExpansionKey): number[] {
  const first = H_EXPANSIONS + headerBlock(key, BLOCK[key]);
  return Array.from(s.h.subarray(first, first + BLOCK[key]));
}

test('an expansion that is off never has its header block written, by the core or another expansion', () => {
  for (let mask = 0; mask < 8; mask++) {
    const rules = Object.fromEntries(EXPANSION_KEYS.map((key) => [key, (mask & optionBit(key)) !== 0]));
    const off = EXPANSION_KEYS.filter((key) => !rules[key]);
    const s = newGame({ players: 3, seed: `blocks-${mask}`, rules });
    const rng = new Rng(mask);
    const untouched = () => {
      for (const key of off) assert.deepEqual(block(s, key), new Array(BLOCK[key]).fill(0), `${key} off, options ${mask}, ${s.placed} tiles`);
    };
    untouched();
    while (!bagEmpty(s)) {
      const m = randomMove(s, rng, 0.8);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
      untouched();
    }
  }
});

test('every figure kind has one module and one option bit; every river tile, and no other, is the River’s to place', () => {
  assert.equal(FIGURES.length, FIGURE_KINDS);
  assert.deepEqual(
    FIGURES.map((f) => f.figure),
    FIGURE_NAMES.map((_, i) => i),
  );
  assert.deepEqual(FIGURE_OPTION, [0, optionBit('innsCathedrals'), optionBit('abbot')]);
  for (let t = 0; t < TYPE_COUNT; t++) assert.equal(TILE_RULES[t]?.key, IS_RIVER[t] ? 'river' : undefined, `type ${t}`);
});
