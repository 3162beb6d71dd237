// The whole suite as one `node --test` run, after `npm test` has linted and built. With COVERAGE=1
// (set by `npm run coverage` and .ci/run) the same run is measured by V8 coverage and fails below
// the floors: CI runs the suite once. Off by default: instrumented, tests cost 4-6x the CPU.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const coverage = [
  '--experimental-test-coverage',
  '--test-coverage-exclude=test/**',
  '--test-coverage-exclude=research/**',
  '--test-coverage-exclude=dist/**',
  // The floors are the product's (bot-engine, server, client): benchmarks and scripts run in the
  // suite only to show they work.
  '--test-coverage-exclude=bench/**',
  '--test-coverage-exclude=support/**',
  '--test-coverage-exclude=scripts/**',
  '--test-coverage-lines=95',
  '--test-coverage-branches=86',
  '--test-coverage-functions=92',
];
const on = !!process.env.COVERAGE && process.env.COVERAGE !== '0';
// Files may be named (`node scripts/test.mjs test/x.test.ts`); `npm test` runs them all.
const files = process.argv.length > 2 ? process.argv.slice(2) : ['test/**/*.test.ts'];
// Two files at a time even on two cores (node's default is cores - 1): most files wait on servers,
// sockets and a browser more than they compute.
const concurrency = `--test-concurrency=${Math.max(2, availableParallelism() - 1)}`;
// A test without a timeout of its own gets 4 minutes: a hang fails that test, it does not hold
// the run until CI's limit.
const args = ['--test', concurrency, '--test-timeout=240000', '--test-reporter=spec', ...(on ? coverage : []), ...files];
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
