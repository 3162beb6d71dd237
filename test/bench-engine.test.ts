// The engine benchmark runs and reports (its numbers are judged in docs/BENCHMARKS.md, not here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

test('bench:engine --quick runs and writes its report', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const script = fileURLToPath(new URL('../bench/engine.ts', import.meta.url));
  const r = spawnSync(process.execPath, [script, '--quick'], { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /games\/s/);
  const results = JSON.parse(readFileSync(join(cwd, 'docs', 'results', 'engine.json'), 'utf8'));
  for (const key of ['legalPlacementsNs', 'stateCopyNs', 'randomGamesPerSecond', 'allOptionsGamesPerSecond']) assert.ok(results[key] > 0, key);
  assert.match(readFileSync(join(cwd, 'docs', 'BENCHMARKS.md'), 'utf8'), /<!-- engine:start -->[\s\S]*games\/s[\s\S]*<!-- engine:end -->/);
});
