// research/regret.ts runs, reports every setting, reuses its oracle cache and refuses a setting
// the oracle cannot judge (its numbers are read in docs/BOTS.md, not here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../regret.ts', import.meta.url));
const small = { candidates: 4, samples: 2, horizon: 1, halving: true };

function regret(args: string[]) {
  return spawnSync(process.execPath, [script, '--games', '1', '--every', '25', '--oracle-samples', '4', '--oracle-candidates', '6', '--seeds', '1', '--positions-from', 'heuristic', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
}

function rows(stdout: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    const cells = line.split(' | ');
    if (cells.length === 6 && !line.startsWith('setting')) found.set(cells[0], Number(cells[1]));
  }
  return found;
}

test('research/regret.ts reports each setting and reads its oracle back from the cache', () => {
  const cache = join(mkdtempSync(join(tmpdir(), 'tessera-regret-')), 'oracle.json');
  const configs = ['--configs', JSON.stringify({ small, wider: { ...small, candidates: 6 } }), '--oracle-cache', cache];
  const first = regret(configs);
  assert.equal(first.status, 0, first.stderr);
  assert.ok(existsSync(cache), 'the oracle is cached');
  const measured = rows(first.stdout);
  assert.deepEqual([...measured.keys()], ['heuristic', 'small', 'wider']);
  for (const [name, r] of measured) assert.ok(Number.isFinite(r) && r >= 0, `${name}: regret ${r}`);
  const again = regret(configs);
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(rows(again.stdout), measured);
  // Proof the second run read the cache: an oracle that rates every move alike leaves no regret.
  const saved = JSON.parse(readFileSync(cache, 'utf8'));
  for (const p of saved.positions) p.value = p.value.map(() => 0);
  writeFileSync(cache, JSON.stringify(saved));
  const flat = regret(configs);
  assert.equal(flat.status, 0, flat.stderr);
  for (const [name, r] of rows(flat.stdout)) assert.equal(r, 0, name);
});

test('research/regret.ts refuses a setting with more candidates than the oracle judges', () => {
  const r = regret(['--configs', JSON.stringify({ big: { ...small, candidates: 7 } })]);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /big: 7 candidates, more than the oracle's 6/);
});

test('research/regret.ts judges positions of bigger tables with the expansions, and reports CPU per move', () => {
  const r = regret(['--players', '3', '--rules', 'innsCathedrals,river,abbot', '--oracle-horizon', '2', '--configs', JSON.stringify({ small })]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /3 players, rules \{"tinyCity":false,"farmers":"3rd","innsCathedrals":true,"river":true,"abbot":true\}; oracle: 6 moves × 4 determinizations, horizon 2/);
  const line = r.stdout.split('\n').find((l) => l.startsWith('small | '));
  assert.ok(line, r.stdout);
  const [, regretText, , , cpu, rollouts] = line.split(' | ');
  assert.ok(Number(regretText) >= 0);
  const [mean, p95] = cpu.split(' / ').map(Number);
  assert.ok(mean > 0 && p95 >= 0, cpu);
  assert.ok(Number(rollouts) > 0 && Number(rollouts) <= 4 * 2 + 2 * 4, rollouts);
});
