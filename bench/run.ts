// `npm run bench` (quick, under 3 minutes) and `npm run bench:full`: the HTTP routes, the pool
// study, games under load and (full only) the capacity knee and the soak; each writes its own
// section of docs/BENCHMARKS.md, its JSON under docs/results/ and its plots under docs/bench/.
//
//   node dist/bench/run.js [quick|full|tiny] [--only=http,pool-study,games,classes,capacity,soak]

import { writeReport } from './report.ts';
import { CAPACITY_MODES, runCapacity } from './capacity/run.ts';
import { CLASSES_MODES, runClasses } from './classes/run.ts';
import { GAMES_MODES, runGames, type GamesReport } from './games/run.ts';
import { HTTP_MODES, runHttp } from './http/run.ts';
import { machine, machineLine } from './lib/proc.ts';
import { progress, table } from './lib/stats.ts';
import { type SameMaxPair, STUDY_MODES, STUDY_TITLE, runPoolStudy, type StudyReport } from './pool-study/run.ts';
import { SOAK_MODES, runSoak } from './soak/run.ts';

const mode = (process.argv[2] ?? 'quick') as 'tiny' | 'quick' | 'full';
if (!['tiny', 'quick', 'full'].includes(mode)) {
  process.stderr.write('usage: node dist/bench/run.js [quick|full|tiny] [--only=http,pool-study,games,classes,capacity,soak]\n');
  process.exit(2);
}
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : mode === 'quick' ? ['http', 'pool-study', 'games'] : ['http', 'pool-study', 'games', 'classes', 'capacity', 'soak'];
const label = mode === 'full' ? '`npm run bench:full`' : mode === 'quick' ? '`npm run bench` (quick)' : 'tiny (test) mode';
const start = performance.now();
const m0 = machine();
progress(`bench ${mode}: ${only.join(', ')}; ${machineLine(m0)}`);

let study: StudyReport | null = null;
let games: GamesReport | null = null;

if (only.includes('http')) {
  const { report, markdown } = await runHttp(HTTP_MODES[mode]);
  writeReport('http', 'HTTP routes', `_Run: ${label}._ ${markdown}`, report);
}
if (only.includes('pool-study')) {
  const { report, markdown } = await runPoolStudy(STUDY_MODES[mode]);
  study = report;
  writeReport('pool-study', STUDY_TITLE, `_Run: ${label}._ ${markdown}`, report);
}
if (only.includes('games')) {
  const { report, markdown } = await runGames(GAMES_MODES[mode]);
  games = report;
  writeReport('games', 'Games under load', `_Run: ${label}._ ${markdown}`, report);
}
if (only.includes('classes')) {
  const { report, markdown } = await runClasses(CLASSES_MODES[mode]);
  writeReport('classes', 'Two classes on one pool: bot moves first, game analysis in the idle time', `_Run: ${label}._ ${markdown}`, report);
}
if (only.includes('capacity')) {
  const { report, markdown } = await runCapacity(CAPACITY_MODES[mode]);
  writeReport('capacity', 'Capacity: concurrent games per bot level', `_Run: ${label}._ ${markdown}`, report);
}

if (only.includes('soak')) {
  const { report, markdown } = await runSoak(SOAK_MODES[mode]);
  writeReport('soak', 'Soak: games created, played and abandoned', `_Run: ${label}._ ${markdown}`, report);
}

/** Fixed against dynamic bot p99 at each maximum thread count the study ran (the first is the target's). */
function sameMaxRow(pairs: SameMaxPair[]): string {
  if (pairs.length === 0) return 'not measured';
  return pairs.map((p) => `${p.threads} ${p.threads === 1 ? 'thread' : 'threads'}: ${p.fixedP99Ms} vs ${p.dynamicP99Ms} ms (${p.ratio}×)`).join('; ');
}

if (study && games) {
  const t = study.targets;
  const g = games.targets;
  const mark = (b: boolean | null) => (b === null ? 'not measured' : b ? 'met' : '**missed**');
  const rows = [
    ['fixed warm pool: 0 spawns after ready', `pool study ${t.fixedSpawnsAfterReady}, games run ${g.spawnsAfterReady}`, mark(t.fixedSpawnsAfterReady === 0 && g.spawnsAfterReady === 0)],
    [
      `event-loop p99 ≤ 5 ms, pool saturated, ${games.options.people} people (target 200 games)`,
      `${games.steady.loopP99Ms} ms worst window (median window ${games.steady.loopP99Median} ms); ${g.peakGames} games; queue non-empty: ${g.poolSaturated ? 'yes' : 'no'}`,
      mark(g.loopP99),
    ],
    ['event-loop max ≤ 20 ms, same', `${games.steady.loopMaxMs} ms`, mark(g.loopMax)],
    ['HTTP throughput under game load ≥ 80 % of idle', `${games.httpLoaded?.requestsPerSec ?? '–'} vs ${games.httpIdle?.requestsPerSec ?? '–'} req/s (${games.httpRatio ?? '–'}×)`, mark(g.http80)],
    ['fixed pool bot p99 under bursts ≥ 2× better than dynamic (same maximum thread count)', sameMaxRow(t.sameMaxThreads), mark(t.met2x)],
  ];
  writeReport(
    'targets',
    'Targets at a glance',
    `_Run: ${label}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machineLine(m0, machine())}._ Details and caveats in the sections below.\n\n${table(['target', 'measured', 'result'], rows)}\n`,
    { mode, machine: m0, study: study.targets, games: g },
  );
}
progress(`bench ${mode}: done in ${((performance.now() - start) / 1000).toFixed(0)} s`);
