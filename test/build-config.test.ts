// What each build compiles, as TypeScript lists it: `npm run build` (what `npm start` and the image
// run) the product alone, the benchmarks' build what the `bench*` scripts start, and the type check
// everything.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHIPPED_NODE_FLAGS } from '../support/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts: Record<string, string> = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts;
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The config of the first `tsc -p X` in an npm script. */
function configOf(script: string): string {
  const config = /\btsc -p (\S+)/.exec(scripts[script])?.[1];
  assert.ok(config, `${script} runs tsc -p: ${scripts[script]}`);
  return config;
}

const listed = new Map<string, string[]>();

/** The repository's files a TypeScript config compiles (its includes and all they import). */
function compiled(config: string): string[] {
  if (!listed.has(config)) listed.set(config, list(config));
  return listed.get(config)!;
}

function list(config: string): string[] {
  const out = execFileSync(process.execPath, [tsc, '-p', config, '--listFilesOnly'], { cwd: root, encoding: 'utf8' });
  return out
    .split('\n')
    .filter((f) => f && !f.includes('node_modules'))
    .map((f) => relative(root, f));
}

const top = (files: string[]) => [...new Set(files.map((f) => f.split('/')[0]))].sort();

test('npm run build compiles the product only: no benchmark, test or research file reaches dist/ or the image', () => {
  const files = compiled(configOf('build'));
  assert.deepEqual(top(files), ['bot-engine', 'server']);
  assert.ok(files.includes('server/main.ts') && files.includes('server/pool/worker.ts'), 'the entry and the pool worker');
});

test('every bench script builds what it runs; the type check covers bench, tests and research', () => {
  const bench = Object.keys(scripts).filter((s) => s.startsWith('bench'));
  assert.ok(bench.length >= 5);
  for (const script of bench) {
    const entry = /node (?:--\S+ )*dist\/(bench\/\S+)\.js/.exec(scripts[script])?.[1];
    assert.ok(entry, `${script} runs a compiled benchmark: ${scripts[script]}`);
    const build = /npm run (build\S*)/.exec(scripts[script])?.[1];
    assert.ok(build && compiled(configOf(build)).includes(`${entry}.ts`), `${script}: ${build} compiles ${entry}.ts`);
  }
  const checked = top(compiled(configOf('typecheck')));
  for (const dir of ['bench', 'bot-engine', 'server', 'support', 'test']) assert.ok(checked.includes(dir), `typecheck covers ${dir}/`);
  assert.match(scripts.typecheck, /tsc -p research\/tsconfig\.json/);
});

test('CI runs the suite once: `npm test` with COVERAGE=1 measures coverage and fails below the floors', () => {
  const ci = readFileSync(join(root, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
  assert.equal(ci.match(/\bnpm (test|run coverage)\b/g)?.length, 1, '.ci/run runs one suite');
  assert.match(ci, /COVERAGE=1 npm test\b/);
  assert.match(scripts.test, /node scripts\/test\.mjs$/);
  // One small test file is far below the floors over the whole product: the run fails, says why,
  // and leaves test/ out of the report. Without COVERAGE the same run passes and measures nothing.
  const file = 'test/pool-wait-model.test.ts';
  // A run of its own, not a subtest of this one (the runner marks its children with NODE_TEST_CONTEXT).
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['scripts/test.mjs', file], { cwd: root, encoding: 'utf8', env: { ...outside, ...env } });
  const measured = run({ COVERAGE: '1' });
  assert.equal(measured.status, 1, measured.stdout.slice(-2000));
  assert.match(measured.stdout, /line coverage does not meet threshold of 95%/);
  assert.match(measured.stdout, /server\/pool\/wait-model|wait-model\.ts/);
  assert.doesNotMatch(measured.stdout, /\.test\.ts *\|/, 'test files are not measured');
  const plain = run({ COVERAGE: '' });
  assert.equal(plain.status, 0, plain.stdout.slice(-2000));
  assert.doesNotMatch(plain.stdout, /coverage report/);
});

test('npm start, the Dockerfile and the benchmarks run the server with the same node flags', () => {
  const start = /\bnode ((?:--\S+ )*)dist\/server\/main\.js/.exec(scripts.start);
  assert.ok(start, `npm start runs dist/server/main.js: ${scripts.start}`);
  const cmdLine = readFileSync(join(root, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('CMD '));
  assert.ok(cmdLine, 'the Dockerfile has a CMD');
  const cmd: string[] = JSON.parse(cmdLine.slice(4));
  assert.equal(cmd[0], 'node');
  assert.equal(cmd.at(-1), 'dist/server/main.js');
  const shipped = start[1].split(' ').filter(Boolean);
  assert.deepEqual(cmd.slice(1, -1), shipped, 'the Dockerfile CMD and npm start');
  assert.deepEqual([...SHIPPED_NODE_FLAGS], shipped, 'support/server.ts and npm start');
});
