// The scheduler degrades by the wait the pool predicts, not by queue fill: the wait model is the
// searches ahead on the workers that free first, and the level is the strongest that still ends
// in time. Pure functions, no threads.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAN_FIT, planLevel } from '../server/games/bot-scheduler.ts';
import { nextSearch, PASS_LIMIT_MS, QUICK_MS, RunTimeModel, predictStartMs } from '../server/pool/wait-model.ts';

test('a new search starts when the worker that frees first has run everything queued ahead of it', () => {
  assert.equal(predictStartMs(1, [], []), 0, 'an idle worker: no wait');
  assert.equal(predictStartMs(1, [120], []), 120);
  assert.equal(predictStartMs(1, [120], [300, 50]), 470, 'one worker runs them all in turn');
  // Two workers: 100 and 10 left; the queue [200, 30] goes 200 → the one free at 10 (then 210),
  // 30 → the one free at 100 (then 130): the next one starts at 130.
  assert.equal(predictStartMs(2, [100, 10], [200, 30]), 130);
  assert.equal(predictStartMs(3, [100, 10], [200]), 10, 'the idle third worker takes the queued one');
});

test('the next search: a quick one passes longer ones queued ahead, until the oldest has waited PASS_LIMIT_MS', () => {
  const at = (expectedMs: number, submittedAt: number) => ({ expectedMs, submittedAt });
  const now = 10_000;
  assert.equal(nextSearch([at(350, now - 10), at(120, now - 5), at(1, now - 1)], now), 2, 'the random bot goes before two deep searches');
  assert.equal(nextSearch([at(350, now - 10), at(QUICK_MS, now - 5), at(1, now - 1)], now), 1, 'the first quick one, in order');
  assert.equal(nextSearch([at(1, now - 10), at(350, now - 5), at(3, now - 1)], now), 0, 'a quick one at the head simply goes');
  assert.equal(nextSearch([at(350, now - 10), at(QUICK_MS + 1, now - 5)], now), 0, 'no quick one: first come, first served');
  assert.equal(nextSearch([at(350, now - PASS_LIMIT_MS), at(1, now - 1)], now), 0, 'the oldest waited its limit: it is next');
  assert.equal(nextSearch([], now), 0);
});

test('run times: the moving average of finished searches, with priors before any', () => {
  const m = new RunTimeModel();
  const prior = m.expectedMs('expert');
  assert.ok(prior > m.expectedMs('hard') && m.expectedMs('hard') > m.expectedMs('heuristic'), 'priors rank the levels');
  m.record('expert', 100);
  assert.equal(m.expectedMs('expert'), 100, 'the first sample replaces the prior');
  m.record('expert', 200);
  assert.ok(m.expectedMs('expert') > 100 && m.expectedMs('expert') < 200);
});

test('the level: kept while the wait is short, the strongest that fits after a long one, the cheap one in a crowded queue, the main thread past the deadline', () => {
  const expected = { random: 1, greedy: 2, heuristic: 5, medium: 40, hard: 120, expert: 400 } as const;
  const run = (l: keyof typeof expected) => expected[l];
  const deadline = 2000;
  assert.deepEqual(planLevel('expert', 0, deadline, run), { level: 'expert', waitMs: 0, why: null });
  // A short wait keeps the level even when the search alone would be long: its deadline cuts it.
  assert.equal(planLevel('expert', (1 - PLAN_FIT) * 300, 300, run).level, 'expert');
  assert.equal(planLevel('expert', 1200, deadline, run).level, 'expert', '1200 + 400 ≤ 0.8 × 2000');
  assert.equal(planLevel('expert', 1300, deadline, run).level, 'hard');
  assert.equal(planLevel('expert', 1550, deadline, run).level, 'medium');
  assert.equal(planLevel('expert', 1599, deadline, run).level, 'heuristic');
  assert.equal(planLevel('expert', 1900, deadline, run).level, 'heuristic', 'still before the deadline: the cheapest search');
  assert.equal(planLevel('expert', 2100, deadline, run).level, null, 'past the deadline: no search can answer in time');
  assert.equal(planLevel('greedy', 1900, deadline, run).level, 'greedy', 'never raised to a stronger level');
  // A crowded queue: searches that would end in time still drop to the cheap level, so the queue
  // drains instead of overflowing into main-thread moves.
  assert.deepEqual(planLevel('hard', 200, deadline, run, 0.6), { level: 'heuristic', waitMs: 200, why: 'queue' });
  assert.deepEqual(planLevel('hard', 200, deadline, run, 0.4), { level: 'hard', waitMs: 200, why: null });
  assert.equal(planLevel('greedy', 200, deadline, run, 0.9).level, 'greedy');
  assert.equal(planLevel('expert', 2100, deadline, run, 0.9).level, null);
});
