// The tournament CLI: a run killed part-way resumes from its checkpoint and gives the result an
// uninterrupted run gives; a checkpoint of another tournament is refused.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../bench/tournament.ts', import.meta.url));
const base = ['--a', 'heuristic', '--b', 'greedy', '--games', '60', '--workers', '1', '--seed', 'resume-test'];

function run(args: string[], onStart?: (kill: () => void) => void): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
    onStart?.(() => child.kill('SIGKILL'));
  });
}

const outcome = (file: string) => {
  const s = JSON.parse(readFileSync(file, 'utf8'));
  return { games: s.games, winsA: s.winsA, draws: s.draws, winsB: s.winsB, meanScoreA: s.meanScoreA, meanScoreB: s.meanScoreB, ci95: s.ci95 };
};

test('a killed tournament resumes from its checkpoint with the uninterrupted result', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tournament-'));
  const whole = join(dir, 'whole.json');
  assert.equal((await run([...base, '--out', whole])).code, 0);

  const cut = join(dir, 'cut.json');
  const checkpoint = `${cut}.partial.jsonl`;
  const killed = await run([...base, '--out', cut], (kill) => {
    // Kill hard once two pairs are on disk: no chance to clean up. Count finished lines only: a
    // line caught mid-write would be dropped on resume (the resumed run plays that pair again).
    const poll = setInterval(() => {
      const lines = existsSync(checkpoint) ? (readFileSync(checkpoint, 'utf8').match(/\n/g) ?? []).length : 0;
      if (lines >= 3) {
        clearInterval(poll);
        kill();
      }
    }, 5);
  });
  assert.equal(killed.code, null, 'killed before it finished');
  assert.ok(!existsSync(cut));

  const resumed = await run([...base, '--out', cut]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming from .*cut\.json\.partial\.jsonl: \d+ pairs already played/);
  assert.deepEqual(outcome(cut), outcome(whole));
  assert.ok(JSON.parse(readFileSync(cut, 'utf8')).resumedPairs >= 2);
  assert.ok(!existsSync(checkpoint), 'the checkpoint is removed once the run is complete');
});

test('a checkpoint of a different tournament is refused, and --fresh discards it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tournament-'));
  const out = join(dir, 'r.json');
  writeFileSync(`${out}.partial.jsonl`, '{"a":"expert","b":"random"}\n');
  const args = ['--a', 'greedy', '--b', 'random', '--games', '2', '--workers', '1', '--out', out];
  const refused = await run(args);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /checkpoint of a different tournament.*--fresh/);
  assert.ok(!existsSync(out));
  const fresh = await run([...args, '--fresh']);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).games, 2);
});

test('with 3 players the summary gives the win rate against par, and no Elo', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tournament-'));
  const out = join(dir, 'three.json');
  const child = spawn(process.execPath, [cli, '--a', 'heuristic', '--b', 'random', '--players', '3', '--games', '4', '--workers', '1', '--seed', 'par-test', '--out', out, '--no-ladder'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  const line = stdout.split('\n').find((l) => l.includes('win rate'));
  assert.ok(line, stdout);
  assert.match(line, /Elo n\/a \(par 33\.3%\)$/);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).players, 3);
});
