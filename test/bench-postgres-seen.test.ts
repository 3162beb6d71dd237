// The markSeen benchmark runs and reports both modes on a private PostgreSQL (its numbers are
// judged in docs/BENCHMARKS.md, not here).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { needing, POSTGRES } from './support/needs.ts';

const { test } = needing([POSTGRES]);

test('bench/postgres-seen times every mark in both modes, twice', () => {
  const script = fileURLToPath(new URL('../bench/postgres-seen/run.ts', import.meta.url));
  const out = execFileSync(process.execPath, [script, '--games=3', '--calls=40', '--parallel=2'], { encoding: 'utf8' });
  const rows = out.split('\n').filter((l) => /'(locked \(store\.update\)|single UPDATE)'/.test(l));
  assert.equal(rows.length, 4, out);
  for (const row of rows) {
    const [p50, p99, mean, perSecond] = row.split('│').slice(4, 8).map(Number);
    assert.ok(p50 > 0 && p99 >= p50 && mean > 0 && perSecond > 0, row);
  }
});
