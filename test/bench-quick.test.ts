// The load benchmarks run end to end in their tiny mode (seconds, not minutes) against the real
// server and the real pool, and report: every section of docs/BENCHMARKS.md and its JSON.
// Runs in a temporary directory so the committed docs/ are not touched. It runs bench/ from source
// (bench/lib/paths.ts), against the compiled server of `npm run build`: `npm run bench` compiles
// bench/ too (tsconfig.bench.json), the product build does not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const driver = join(root, 'bench', 'run.ts');
const server = join(root, 'dist', 'server', 'main.js');

// Its loads last seconds, but it starts six servers: ~80 s on a quiet 2-core box, 170 s once
// the box ran eight times as much work as it has cores. The limit is for a hang, not for speed.
test('bench tiny mode runs the HTTP, pool-study, games, classes, capacity and soak loads and writes its report', {
  timeout: 420_000,
  skip: existsSync(server) ? false : 'run `npm run build` first',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-test-'));
  try {
    const started = Date.now();
    const r = spawnSync(process.execPath, [driver, 'tiny', '--only=http,pool-study,games,classes,capacity,soak'], { cwd: dir, encoding: 'utf8', timeout: 400_000 });
    assert.equal(r.status, 0, `bench exited ${r.status} ${r.signal ?? ''}\n${r.stderr.slice(-3000)}`);
    assert.match(r.stderr, /pool study: \(1\) fixed warm/, 'prints progress');
    const md = readFileSync(join(dir, 'docs', 'BENCHMARKS.md'), 'utf8');
    for (const name of ['http', 'pool-study', 'games', 'classes', 'capacity', 'soak', 'targets'])
      assert.ok(md.includes(`<!-- ${name}:start -->`) && md.includes(`<!-- ${name}:end -->`), `section ${name}`);
    // The fixed-vs-dynamic target compares at the same maximum thread count, as the pool study
    // does (tiny mode runs no dynamic pool).
    assert.match(
      md,
      /\| fixed pool bot p99 under bursts ≥ 2× better than dynamic \(same maximum thread count\) \| (not measured|1 thread: [\d.]+ vs [\d.]+ ms \([\d.]+×\)[^|]*) \| (not measured|met|\*\*missed\*\*) \|/,
    );
    // Every section says how much CPU the host took away during its run (Linux: /proc/stat).
    assert.equal(md.match(/CPU steal \d+\.\d % of the run/g)?.length, 7, 'CPU steal in every section');

    const http = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'http.json'), 'utf8'));
    assert.ok(http.routes.length >= 5);
    for (const route of http.routes)
      assert.ok(route.requestsPerSec > 0 && route.errors === 0 && route.non2xx === 0, `${route.route}: ${route.requestsPerSec} req/s, ${route.errors} errors, ${route.non2xx} non-2xx`);
    assert.equal(http.serverExitCode, 0, `http server: ${JSON.stringify(http.serverLog)}`);

    const study = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'pool-study.json'), 'utf8'));
    const fixed = study.results.find((s: { id: string }) => s.id === 'fixed');
    const fresh = study.results.find((s: { id: string }) => s.id === 'fresh');
    assert.equal(fixed.spawnsDuringRun, 0, 'a fixed warm pool spawns nothing after ready');
    assert.equal(fresh.spawnsDuringRun, fresh.searches, 'a fresh worker per search spawns once per search');
    assert.equal(fixed.failed + fresh.failed, 0);
    assert.ok(fixed.searches > 0 && fixed.searches === study.workload.searches);
    assert.ok(fresh.spawnCpuDuringMs > 0 && fixed.computeCpuMs > 0);
    // The peers' way on the same workload: searches on the main thread block its event loop for a
    // whole search; one Worker per game spawns one thread per game that starts during the run.
    const main = study.results.find((s: { id: string }) => s.id === 'main');
    const perGame = study.results.find((s: { id: string }) => s.id === 'per-game');
    const studyGames = study.workload.games;
    for (const s of [main, perGame]) assert.ok(s.failed === 0 && s.searches === study.workload.searches, `${s.id}: ${s.searches} searches, ${s.failed} failed`);
    assert.deepEqual([main.spawnsDuringRun, main.peakThreads, main.spawnCpuDuringMs], [0, 0, 0], 'the main thread spawns nothing');
    const shortest = Math.min(...main.records.map((r: { runMs: number }) => r.runMs));
    assert.ok(main.eventLoopDelayMs.max >= 0.8 * shortest, `a search blocks the loop: loop max ${main.eventLoopDelayMs.max} ms, shortest search ${shortest} ms`);
    assert.ok(main.http && main.http.latencyMs.p99 > 0, 'HTTP measured while the main thread searches');
    assert.ok(studyGames.startedDuring > 0 && studyGames.count === studyGames.runningAtStart + studyGames.startedDuring, 'games start during the workload');
    assert.equal(perGame.threadsBefore, studyGames.runningAtStart, 'a Worker per game running before the workload');
    assert.equal(perGame.spawnsDuringRun, studyGames.startedDuring, 'a Worker per game started during the workload');
    assert.ok(perGame.spawnCpuDuringMs > 0, 'spawn CPU of the games started during the run');
    assert.ok(md.includes('**Why a fixed warm pool') && md.includes('| (6) main thread') && md.includes('| (7) one Worker per game'), 'the peers side by side');

    const games = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'games.json'), 'utf8'));
    assert.ok(games.load.gamesStarted > 0 && games.load.botMoves > 0 && games.load.personMoves > 0, 'people and bots moved');
    assert.equal(games.load.errors.http, 0);
    assert.equal(games.load.errors.stalled, 0);
    assert.ok(games.load.pool && games.load.windows.length > 0, 'read /api/pool while running');
    assert.equal(games.serverExitCode, 0, `games server: ${JSON.stringify(games.serverLog)}`);

    // Two classes: bots played in both live phases, the analysis advanced beside them and alone,
    // and the pool spawned nothing.
    const classes = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'classes.json'), 'utf8'));
    const [alone, loaded, analysisOnly] = classes.phases;
    assert.ok(alone.botMoves > 0 && loaded.botMoves > 0, 'bots moved in both live phases');
    assert.ok(loaded.positions + analysisOnly.positions > 0 && analysisOnly.positionsPerSec > 0, 'analysis advanced');
    assert.ok(classes.idealPositionsPerSec > 0);
    assert.equal(classes.targets.noSpawn, true);
    assert.ok(classes.isolation.searches > 0 && classes.isolation.yields > 0, 'the pool alone: searches with analysis yielding to them');

    const capacity = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'capacity.json'), 'utf8'));
    assert.ok(capacity.steps.length >= 1 && capacity.steps[0].bot.count > 0);
    const soak = JSON.parse(readFileSync(join(dir, 'docs', 'results', 'soak.json'), 'utf8'));
    assert.ok(soak.created.open_seat > 0 && soak.created.left > 0 && soak.created.played > 0, 'games of every kind');
    assert.deepEqual([soak.end.lost, soak.end.notEnded, soak.end.active], [0, 0, 0], 'every game ended, none lost');
    assert.ok(soak.samples.length >= 2 && soak.samples.every((s: { rssMb: number; inMemory: number }) => s.rssMb > 0 && s.inMemory >= 0));
    assert.equal(soak.serverExitCode, 0, `soak server: ${JSON.stringify(soak.serverLog)}`);
    console.log(`bench tiny mode: ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
