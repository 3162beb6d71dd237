// `npm run replay` end to end: a child process reading a file or standard input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newGame, legalMoves, playMove } from '../bot-engine/game.ts';
import { toRecord } from '../bot-engine/record.ts';
import { Rng } from '../bot-engine/rng.ts';

const cli = fileURLToPath(new URL('../server/cli/replay.ts', import.meta.url));
const run = (args: string[], input?: string) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });

function finishedRecord() {
  const s = newGame({ players: 3, seed: 'cli' });
  const rng = new Rng(5);
  while (!s.finished) {
    const moves = legalMoves(s);
    playMove(s, moves[rng.below(moves.length)]);
  }
  return { record: toRecord(s, ['Ann', 'Ben', 'Cat'], 'cli'), state: s };
}

test('replay prints the scores and every scoring event of a valid record', () => {
  const { record, state } = finishedRecord();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-'));
  const file = join(dir, 'game.json');
  writeFileSync(file, JSON.stringify(record));
  const r = run([file]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.scores, { Ann: state.score(0), Ben: state.score(1), Cat: state.score(2) });
  const total = (name: string) => out.events.filter((e: { players: string[] }) => e.players.includes(name)).reduce((a: number, e: { points: number }) => a + e.points, 0);
  for (const name of ['Ann', 'Ben', 'Cat']) assert.equal(total(name), out.scores[name], `events add up for ${name}`);
  assert.ok(out.events.some((e: { phase: string }) => e.phase === 'final'));
});

test('replay reads standard input with "-"', () => {
  const { record } = finishedRecord();
  const r = run(['-'], JSON.stringify(record));
  assert.equal(r.status, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).scores);
});

test('an illegal move exits non-zero naming the first illegal move', () => {
  const { record } = finishedRecord();
  const k = 10;
  const bad = { ...record, moves: record.moves.map((m, i) => (i === k && 'tile' in m ? { ...m, x: m.x + 50 } : m)) };
  const r = run(['-'], JSON.stringify(bad));
  assert.notEqual(r.status, 0);
  const out = JSON.parse(r.stdout);
  assert.equal(out.moveIndex, k);
  assert.match(out.error, /does not touch/);
});

test('a file that is not JSON is a clear error', () => {
  const r = run(['-'], '{not json');
  assert.notEqual(r.status, 0);
  assert.match(JSON.parse(r.stdout).error, /JSON/);
});
