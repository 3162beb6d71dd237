// Every bot level plays every expansion legally: its choices go through playMove's validation,
// whole games for the one-ply levels, the first moves (the river, then land) for the searches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newGame, playMove, resolvedToMove } from '../bot-engine/game.ts';
import { chooseMove } from '../bot-engine/bots/index.ts';
import type { Rules } from '../bot-engine/rules.ts';

const ALL: Rules = { tinyCity: false, farmers: '3rd', river: true, innsCathedrals: true, abbot: true };

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
