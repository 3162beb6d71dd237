// Every bot level plays every expansion legally: its choices go through playMove's validation,
// whole games for the one-ply levels, the first moves (the river, then land) for the searches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newGame, playMove, resolvedToMove } from '../bot-engine/game.ts';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { type Rules, drawType } from '../bot-engine/rules.ts';
import { evaluate } from '../bot-engine/bots/evaluate.ts';
import { tileIndex } from '../bot-engine/tiles.ts';

const ALL: Rules = { tinyCity: false, farmers: '3rd', river: true, innsCathedrals: true, abbot: true };
const INNS: Rules = { tinyCity: false, farmers: '3rd', innsCathedrals: true };

test('random, greedy and heuristic play whole six-seat games with every expansion, every move legal, every figure used', () => {
  for (const level of ['random', 'greedy', 'heuristic'] as const) {
    const s = newGame({ players: 6, rules: ALL, seed: `bots-${level}` });
    const figures = new Set<string>();
    for (let turn = 0; !s.finished; turn++) {
      const move = resolvedToMove(s, chooseMove(s, level, turn));
      const outcome = playMove(s, move);
      assert.ok(!('error' in outcome), `${level}, turn ${turn}: ${'error' in outcome ? outcome.error : ''}`);
      if (move.meeple) figures.add(move.figure ?? 'follower');
    }
    assert.deepEqual([...figures].sort(), ['abbot', 'follower', 'large'], level);
  }
});

test('the search levels choose legal moves with every expansion on, through the river and after it', () => {
  for (const level of ['medium', 'hard', 'expert'] as const) {
    const s = newGame({ players: 2, rules: ALL, seed: `search-${level}` });
    for (let turn = 0; turn < 16; turn++) {
      const outcome = playMove(s, resolvedToMove(s, chooseMove(s, level, turn)));
      assert.ok(!('error' in outcome), `${level}, turn ${turn}: ${'error' in outcome ? outcome.error : ''}`);
    }
    assert.ok(s.placed > 12, 'past the river');
  }
});

test("the evaluation counts an inn: the road's value moves off the plain road's, within what the inn can be worth", () => {
  // D at (0,0) with its road W-E; seat 0's follower on the road of IP (inn) or U (plain) at (1,0).
  // The same board otherwise, so the difference is the inn alone: plain road 2 tiles = 2 points
  // whatever happens; with the inn 2 × 2 × chance, between 0 and 4, and not equal to 2 unless the
  // chance is exactly a half.
  const value = (tile: string) => {
    const s = newGame({ players: 2, rules: INNS, seed: 'eval-inn' });
    assert.ok(drawType(s, tileIndex(tile)));
    assert.ok(!('error' in playMove(s, { x: 1, y: 0, rotation: 0, meeple: 'road:E' })));
    const out = new Float64Array(6);
    evaluate(s, out);
    return out[0];
  };
  const plain = value('U');
  const inn = value('IP');
  assert.notEqual(inn, plain);
  assert.ok(Math.abs(inn - plain) <= 2 + 1e-9, `inn ${inn}, plain ${plain}`);
});
