// The SQLite commit benchmark runs and reports each mode (its numbers are judged in
// docs/BENCHMARKS.md, not here).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('bench/sqlite-commits times every commit in each mode, and the thread mode checkpoints', () => {
  const script = fileURLToPath(new URL('../bench/sqlite-commits/run.ts', import.meta.url));
  const out = execFileSync(process.execPath, [script, '--games=5', '--commits=900', '--rate=3000', '--modes=inline,thread,none'], { encoding: 'utf8' });
  const rows = out.split('\n').filter((l) => /'(inline|thread|none)'/.test(l));
  assert.equal(rows.length, 3, out);
  for (const row of rows) assert.match(row, /│ 900 +│/, 'every commit timed');
  const checkpoints = (mode: string) =>
    Number(
      rows
        .find((r) => r.includes(`'${mode}'`))!
        .split('│')
        .at(-2)!
        .trim(),
    );
  assert.ok(checkpoints('thread') >= 1, out);
  assert.equal(checkpoints('inline'), 0);
});
