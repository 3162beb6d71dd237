// The tournament CLI: a run killed part-way resumes from its checkpoint and gives the result an
// uninterrupted run gives; a finished run extends with more games;
// a checkpoint of another tournament is refused.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { summarise } from '../bench/tournament.ts';

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
  const checkpoint = `${cut}.checkpoint.jsonl`;
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
  assert.match(resumed.stderr, /resuming from .*cut\.json\.checkpoint\.jsonl: \d+ pairs already played/);
  assert.deepEqual(outcome(cut), outcome(whole));
  assert.ok(JSON.parse(readFileSync(cut, 'utf8')).resumedPairs >= 2);

  // A finished run keeps its checkpoint: more games extend it, playing only the pairs added.
  const extended = await run([...base.map((a) => (a === '60' ? '64' : a)), '--out', cut]);
  assert.equal(extended.code, 0, extended.stderr);
  assert.match(extended.stderr, /resuming from .*cut\.json\.checkpoint\.jsonl: 30 pairs already played/);
  const summary = JSON.parse(readFileSync(cut, 'utf8'));
  assert.equal(summary.games, 64);
  assert.equal(summary.resumedPairs, 30);
});

test('a checkpoint of a different tournament is refused, and --fresh discards it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tournament-'));
  const out = join(dir, 'r.json');
  writeFileSync(`${out}.checkpoint.jsonl`, '{"a":"expert","b":"random"}\n');
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

test('mixed 6-player tables: A in every other seat, then in the others, on the same tile order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-tournament-'));
  const out = join(dir, 'six.json');
  const args = ['--a', 'heuristic', '--b', 'random', '--players', '6', '--mixed', '--rules', 'innsCathedrals,river,abbot', '--games', '2', '--workers', '1', '--seed', 'mixed-test'];
  const child = spawn(process.execPath, [cli, ...args, '--out', out, '--no-ladder'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stdout);
  assert.match(stdout, /6 players \(mixed: A in every other seat\)/);
  assert.match(stdout, /Elo n\/a \(par 50\.0%\); heuristic above random in [\d.]+% of seat pairs/);
  const s = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(s.mixed, true);
  // Three heuristic seats against three random ones: heuristic tops the table and outscores
  // random in nearly every pairing, so its places are the upper half.
  assert.equal(s.winsA, 2);
  assert.ok(s.seatPairs.rate > 0.8, JSON.stringify(s.seatPairs));
  assert.ok(s.meanPlace.a < 3.5 && s.meanPlace.b > 3.5 && Math.abs(s.meanPlace.a + s.meanPlace.b - 7) < 1e-9, JSON.stringify(s.meanPlace));
});

test('mixed tables are summarised seat pair by seat pair, ties counting half', () => {
  const game = (seatsA: number[], scores: number[]) => ({ seatA: seatsA[0], seatsA, scores, msA: [1], msB: [1], cpuA: [1], cpuB: [1], stoppedMoves: 0 });
  const rules = { tinyCity: false, farmers: '3rd' } as const;
  // Game 1: A (seats 0, 2, 4) scores 10, 8, 3 against B's 9, 8, 1: A tops the table; of the nine
  // seat pairs A wins 10>9, 10>8, 10>1, 8>1, 3>1, ties 8=8, loses 8<9, 3<9, 3<8: 5.5 / 9.
  // Game 2: A (1, 3, 5) scores 5, 5, 5 against B's 5, 5, 5: a draw, every pair tied.
  const s = summarise('hard', 'medium', 6, rules, 's', 1, [{ seed: 's:0', games: [game([0, 2, 4], [10, 9, 8, 8, 3, 1]), game([1, 3, 5], [5, 5, 5, 5, 5, 5])] }], 1, true);
  assert.deepEqual([s.winsA, s.draws, s.winsB], [1, 1, 0]);
  assert.equal(s.seatPairs!.rate, Math.round((10000 * (5.5 / 9 + 0.5)) / 2) / 10000);
  // Places: game 1 A 1, 3.5, 5 (mean 19/6), B 2, 3.5, 6 (mean 23/6); game 2 everyone 3.5.
  assert.deepEqual(s.meanPlace, { a: Math.round((100 * (19 / 6 + 3.5)) / 2) / 100, b: Math.round((100 * (23 / 6 + 3.5)) / 2) / 100 });
});
