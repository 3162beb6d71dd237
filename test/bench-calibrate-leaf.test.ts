// The leaf calibration runs, fits a weight for every term and reports its held-out error next to
// the static evaluation's (its numbers are read in docs/BOTS.md, not here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TERMS, TERM_SCORE } from '../bot-engine/bots/evaluate.ts';

const script = fileURLToPath(new URL('../bench/calibrate-leaf.ts', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 120_000 });

test('bench/calibrate-leaf.ts fits every term and reports held-out errors', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'tessera-leaf-')), 'leaf.json');
  const r = run(['--games', '40', '--seed', 'leaf-test', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const saved = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(saved.weights.start.length, TERMS);
  assert.equal(saved.weights.end.length, TERMS);
  assert.equal(saved.weights.start[TERM_SCORE], 1);
  assert.ok(saved.positions.fitted > 30 * 60 && saved.positions.heldOut > 10 * 60, JSON.stringify(saved.positions));
  for (const w of [...saved.weights.start, ...saved.weights.end]) assert.ok(Number.isFinite(w));
  const errors = saved.heldOutError;
  assert.deepEqual(Object.keys(errors), ['no change', 'static evaluation', 'fit']);
  for (const e of Object.values(errors) as Record<string, number>[]) for (const v of Object.values(e)) assert.ok(v >= 0);
  // Least squares on the training games: on held-out games it still beats predicting no change.
  assert.ok(errors.fit.all < errors['no change'].all, JSON.stringify(errors));
  // The spread by tiles left covers every position once, and the last tiles stray least.
  const spread = saved.staticSpread as { positions: number; pointsSq: number; perTile: number }[];
  assert.equal(spread.reduce((n, b) => n + b.positions, 0), saved.positions.fitted + saved.positions.heldOut);
  assert.ok(spread[0].pointsSq < spread[4].pointsSq, JSON.stringify(spread));
  assert.match(r.stdout, /LeafWeights: \{"start":\[/);
});

test('bench/calibrate-leaf.ts refuses a bad player count', () => {
  const r = run(['--games', '4', '--players', '5']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--players must be 2, 3 or 4/);
});
