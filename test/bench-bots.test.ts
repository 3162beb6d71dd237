// The bot CPU benchmark runs and reports (its numbers are judged in docs/BENCHMARKS.md, not here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANALYSIS_CPU_BUDGET_MS } from '../bot-engine/analysis.ts';
import { LEVEL_CPU_BUDGET_MS } from '../bot-engine/bots/levels.ts';
import { SEARCH_LEVELS, budgetAt } from '../bot-engine/bots/rollout.ts';

test('bench:bots --quick measures the levels asked at the tables asked, against their budgets and work ceilings', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-bench-bots-'));
  const script = fileURLToPath(new URL('../bench/bot-cpu.ts', import.meta.url));
  // Without the suite's coverage collection (node copies NODE_V8_COVERAGE into a child's
  // environment unless it is set there): it slows the searches' hot loops 6-fold, and the
  // benchmark's code is not part of the coverage floors.
  const env = { ...process.env, NODE_V8_COVERAGE: '' };
  const r = spawnSync(process.execPath, [script, '--quick', '--players', '2', '--levels', 'greedy,medium,analysis'], { cwd, env, encoding: 'utf8', timeout: 230_000 });
  assert.equal(r.status, 0, r.stderr);
  const { rows } = JSON.parse(readFileSync(join(cwd, 'docs', 'results', 'bot-cpu.json'), 'utf8'));
  assert.deepEqual(
    rows.map((x: { players: number; table: string }) => `${x.players} ${x.table}`).filter((v: string, i: number, a: string[]) => a.indexOf(v) === i),
    ['2 base game', '2 every option'],
  );
  assert.deepEqual([...new Set(rows.map((x: { level: string }) => x.level))], ['greedy', 'medium', 'analysis']);
  for (const row of rows) {
    assert.ok(row.positions > 0 && row.meanMs >= 0 && row.maxMs >= row.p95Ms, JSON.stringify(row));
    assert.equal(row.budgetMs, row.level === 'analysis' ? ANALYSIS_CPU_BUDGET_MS : LEVEL_CPU_BUDGET_MS[row.level as keyof typeof LEVEL_CPU_BUDGET_MS]);
    assert.equal(row.within, row.p95Ms <= row.budgetMs);
    if (row.level in SEARCH_LEVELS) {
      const ceiling = budgetAt(SEARCH_LEVELS[row.level as keyof typeof SEARCH_LEVELS], row.players).maxWork!;
      assert.ok(row.work.mean > 0 && row.work.mean <= row.work.max, JSON.stringify(row));
      // A round may pass its share by one determinization (and never plays fewer than one).
      assert.ok(row.work.mean <= 1.2 * ceiling, `${row.level} at ${row.players}: mean work ${row.work.mean} over the ceiling ${ceiling}`);
    } else assert.equal(row.work, undefined);
  }
  assert.match(readFileSync(join(cwd, 'docs', 'BENCHMARKS.md'), 'utf8'), /<!-- bot-cpu:start -->[\s\S]*`medium`[\s\S]*`analysis`[\s\S]*<!-- bot-cpu:end -->/);
});
