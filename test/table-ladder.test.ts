// The full-table ladder: every level in every seat, before and after every other, and the
// steps read from real games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotLevel } from '../bot-engine/bots/levels.ts';
import { normalizeRules } from '../bot-engine/game.ts';
import playSet, { type SetResult, seatings } from '../bench/table-ladder-worker.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summariseTable, updateTables } from '../bench/table-ladder.ts';
import { botParams } from '../bench/lib/resumable.ts';
import { budgetAt, type RolloutParams, SEARCH_LEVELS } from '../bot-engine/bots/rollout.ts';

test('a set seats every level in every seat, once in each direction, before and after every other', () => {
  const levels: BotLevel[] = ['heuristic', 'medium', 'hard', 'expert'];
  const all = seatings(levels);
  assert.equal(all.length, 2 * levels.length);
  for (const level of levels) {
    for (let seat = 0; seat < levels.length; seat++) assert.equal(all.filter((s) => s[seat] === level).length, 2, `${level} in seat ${seat}`);
  }
  for (const seats of all) assert.deepEqual([...seats].sort(), [...levels].sort());
  // Who moves right after whom: each ordered pair of neighbours occurs as often as its reverse.
  const after = (x: BotLevel, y: BotLevel) => all.filter((s) => s[(s.indexOf(x) + 1) % s.length] === y).length;
  for (const x of levels) for (const y of levels) if (x !== y) assert.equal(after(x, y), after(y, x), `${y} after ${x}`);
});

test('a step scores the games in which the stronger level outscored the weaker, its interval over sets', () => {
  const game = (seats: BotLevel[], scores: number[]) => ({ seats, scores, cpuMs: seats.map(() => [1, 3]) });
  const sets: SetResult[] = [
    { seed: 's:0', games: [game(['greedy', 'heuristic'], [10, 20]), game(['heuristic', 'greedy'], [30, 30])] },
    { seed: 's:1', games: [game(['greedy', 'heuristic'], [40, 20]), game(['heuristic', 'greedy'], [50, 10])] },
  ];
  const t = summariseTable(['greedy', 'heuristic'], normalizeRules({}), 's', sets, 1);
  assert.equal(t.games, 4);
  assert.deepEqual(
    t.steps.map((s) => [s.stronger, s.weaker, s.rate]),
    [['heuristic', 'greedy', 0.625]],
  );
  // Set means 0.75 and 0.5: standard error 0.125, so 0.625 ± 1.96 × 0.125.
  assert.deepEqual(t.steps[0].ci95, [0.38, 0.87]);
  // Points ahead: set means (10 + 0) / 2 = 5 and (−20 + 40) / 2 = 10: 7.5 ± 1.96 × 2.5.
  assert.equal(t.steps[0].points, 7.5);
  assert.deepEqual(t.steps[0].pointsCi95, [2.6, 12.4]);
  assert.equal(t.byLevel.heuristic.meanPlace, 1.375);
  assert.equal(t.byLevel.greedy.cpuMs.moves, 8);
});

test('real games: greedy outscores random at a three-seat table, every seating on one tile order', () => {
  const levels: BotLevel[] = ['random', 'greedy', 'heuristic'];
  const sets = [0, 1].map((i) => playSet({ levels, seed: `ladder-test:${i}` }));
  for (const set of sets) {
    assert.equal(set.games.length, 6);
    for (const g of set.games) assert.equal(g.cpuMs.flat().length > 0, true);
  }
  const t = summariseTable(levels, normalizeRules({}), 'ladder-test', sets, 1);
  const step = t.steps.find((s) => s.stronger === 'greedy')!;
  assert.ok(step.rate > 0.8, `greedy above random in ${step.rate}`);
  assert.deepEqual(Object.keys(t.byLevel), ['random', 'greedy', 'heuristic']);
});

test('the ladder table in docs/BOTS.md is rebuilt from the results, in place, once per step', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tables-'));
  const md = join(dir, 'BOTS.md');
  writeFileSync(md, '# Bots\n\nbefore\n');
  const game = (seats: BotLevel[], scores: number[]) => ({ seats, scores, cpuMs: seats.map(() => [2]) });
  const t = summariseTable(['medium', 'hard'], normalizeRules({ river: true }), 'x', [{ seed: 'x:0', games: [game(['medium', 'hard'], [1, 9]), game(['hard', 'medium'], [3, 5])] }], 1);
  writeFileSync(join(dir, '2p-medium-hard-river-f3rd-x.json'), JSON.stringify(t));
  updateTables(dir, md);
  updateTables(dir, md);
  const text = readFileSync(md, 'utf8');
  assert.equal(text.match(/tables:start/g)?.length, 1);
  assert.equal(text.match(/\| hard vs medium \|/g)?.length, 1);
  assert.match(text, /\| 2 \| river, farmers 3rd \| medium, hard \| 1 \(2\) \| hard vs medium \| 50\.0% \(50\.0%–50\.0%\) \(par inside\) \| 3\.0 /);
  assert.match(text, /^# Bots\n\nbefore\n/);
});

test("a checkpoint's key holds each level's budget at that table only: another table's change does not stop a run", () => {
  const expert = SEARCH_LEVELS.expert;
  const [atFive] = botParams(['expert'], 5) as RolloutParams[];
  const [atSix] = botParams(['expert'], 6) as RolloutParams[];
  assert.deepEqual(atFive, (({ byPlayers: _, ...rest }) => rest)(budgetAt(expert, 5)));
  assert.equal(atSix.horizon, budgetAt(expert, 6).horizon);
  assert.notDeepEqual(atFive, atSix);
  assert.deepEqual(botParams(['random', 'greedy', 'heuristic'], 3), [null, null, null], 'no search: nothing to change');
  assert.ok(!('byPlayers' in atSix), 'the budgets at other tables are not in the key');
});
