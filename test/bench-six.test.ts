// The six-player tables benchmark (bench/games/six.ts) runs end to end in its tiny mode (one
// table of a person and five cheap bots, every option, a few seconds) against the real server and
// pool, and reports how the bots' moves were made. Runs in a temporary directory so the committed
// docs/ are not touched; needs the compiled server of `npm run build`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moveMix, SIX_MODES } from '../bench/games/six.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = join(root, 'dist', 'server', 'main.js');

test('a move mix counts bot moves by source and the share not searched at the level asked', () => {
  const m = moveMix([
    { source: 'search', elapsedMs: 10 },
    { source: 'degraded', elapsedMs: 900 },
    { source: 'search', elapsedMs: 30 },
    { source: 'fallback', elapsedMs: 2100 },
    { source: 'retry', elapsedMs: 1900 },
    { source: 'search', elapsedMs: 20 },
    { source: 'search', elapsedMs: 40 },
    { source: 'search', elapsedMs: 50 },
  ]);
  assert.deepEqual(m.sources, { search: 5, degraded: 1, retry: 1, fallback: 1 });
  assert.equal(m.moves, 8);
  assert.equal(m.degradedFraction, 0.375);
  assert.deepEqual([m.ms.count, m.ms.p50, m.ms.max], [8, 40, 2100]);
  assert.equal(moveMix([]).degradedFraction, 0, 'no moves: no share, not NaN');
});

test('bench six tiny mode plays a six-player table and reports bot moves by source, per level', {
  timeout: 120_000,
  skip: existsSync(server) ? false : 'run `npm run build` first',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-six-'));
  try {
    const r = spawnSync(process.execPath, [join(root, 'bench', 'games', 'six.ts'), 'tiny'], { cwd: dir, encoding: 'utf8', timeout: 100_000 });
    assert.equal(r.status, 0, `bench six exited ${r.status} ${r.signal ?? ''}\n${r.stderr.slice(-3000)}`);
    const report = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'games-six.json'), 'utf8'));
    assert.ok(report.machine.cpus > 0 && report.machineEnd.date >= report.machine.date, 'the machine at the start and the end');
    assert.equal(report.steps.length, 1);
    const [step] = report.steps;
    assert.equal(step.tables, 1);
    const { bot } = step;
    assert.ok(bot.moves > 20, `the bots moved: ${bot.moves}`);
    assert.equal(bot.sources.search + bot.sources.degraded + bot.sources.retry + bot.sources.fallback, bot.moves, 'every move has a source');
    assert.equal(bot.degradedFraction, Math.round(((bot.moves - bot.sources.search) / bot.moves) * 1e4) / 1e4);
    assert.equal(bot.ms.count, bot.moves);
    // Per level the table asks for: the five seats' three levels, every move in one of them.
    const levels = [...new Set(SIX_MODES.tiny.levels)].sort();
    assert.deepEqual(Object.keys(step.byLevel).sort(), levels);
    assert.equal(
      levels.reduce((n, l) => n + step.byLevel[l].moves, 0),
      bot.moves,
    );
    for (const l of levels) assert.ok(step.byLevel[l].moves > 0, `${l} moved`);
    // The server's own counters over the same window agree with the moves the person saw, to a
    // move in flight at either edge of the window.
    const serverMoves = Object.values(step.server.botMoves as Record<string, number>).reduce((n, x) => n + x, 0);
    assert.ok(Math.abs(serverMoves - bot.moves) <= 2, `server counted ${serverMoves}, the person saw ${bot.moves}`);
    assert.ok(step.server.searches > 0 && step.server.deadlineHits >= 0);
    assert.ok(step.workers >= 1 && step.utilization > 0 && step.utilization <= 1, `utilisation ${step.utilization}`);
    assert.ok(step.queueWaitMs.count > 0 && step.loop.maxMs > 0);
    assert.ok(step.games.started >= 1 && step.personMoves > 0);
    assert.deepEqual([step.errors.http, step.errors.stalled, step.errors.wsClosedEarly, step.serverLog.error, step.serverExitCode], [0, 0, 0, 0, 0]);

    const md = readFileSync(join(dir, 'docs', 'BENCHMARKS.md'), 'utf8');
    assert.ok(md.includes('<!-- games-six:start -->\n## Six-player tables under load') && md.includes('<!-- games-six:end -->'));
    assert.match(md, /CPU steal \d+\.\d % of the run/);
    const s = bot.sources;
    assert.ok(md.includes(`| 1 | ${bot.moves} | ${s.search} / ${s.degraded} / ${s.retry} / ${s.fallback} |`), 'the step row');
    assert.match(md, /\*\*Where the deadline starts to bind\*\* \(degraded\+fallback ≥ 1 % of bot moves\): /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
