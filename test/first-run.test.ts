// A newcomer's first run: an old Node is told what to do before anything is fetched, and a
// machine without Redis (or PostgreSQL, or Chromium) skips the tests that need it, one line each,
// unless CI=true, where they fail; a set-up that fails halfway stops what it had started.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { needing, POSTGRES } from './support/needs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SYSTEM_NODE = '/usr/bin/node';
const SYSTEM_NPM = '/usr/bin/npm';

/** The system's Node when it is older than the project needs (Debian's is 20), else null. */
function oldNode(): string | null {
  if (!existsSync(SYSTEM_NODE) || !existsSync(SYSTEM_NPM)) return null;
  const [major, minor] = execFileSync(SYSTEM_NODE, ['-p', 'process.versions.node']).toString().trim().split('.').map(Number);
  return major < 22 || (major === 22 && minor < 18) ? SYSTEM_NODE : null;
}
const noOldNode = oldNode() ? false : `needs a Node older than 22.18 with its npm at ${SYSTEM_NODE} and ${SYSTEM_NPM}`;

function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}`, ms: Date.now() - started });
    });
  });
}

test('npm install on a Node older than 22.18 stops at once, before fetching anything, and says to run scripts/use-node.sh', { skip: noOldNode }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-first-run-'));
  try {
    for (const f of ['package.json', 'package-lock.json', '.npmrc', 'scripts']) cpSync(join(root, f), join(dir, f), { recursive: true });
    // Offline with an empty cache: any fetch would fail with ENOTCACHED instead.
    const answer = await run(SYSTEM_NPM, ['install', '--offline', '--cache', join(dir, 'cache'), '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { HOME: dir, PATH: '/usr/bin:/bin' },
    });
    assert.notEqual(answer.code, 0);
    assert.doesNotMatch(answer.output, /ENOTCACHED/, 'nothing was fetched');
    const firstError = answer.output.split('\n').findIndex((l) => l.startsWith('npm error'));
    const pointer = answer.output.split('\n').findIndex((l) => l.includes('source scripts/use-node.sh'));
    assert.ok(pointer >= 0, `the pointer is printed:\n${answer.output}`);
    assert.ok(pointer - firstError < 6, `in npm's first error lines:\n${answer.output}`);
    assert.ok(!existsSync(join(dir, 'node_modules')), 'nothing installed');
    assert.ok(answer.ms < 30_000, `${answer.ms} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-node.mjs (prestart, pretest) says the same on an old Node', { skip: noOldNode }, async () => {
  const answer = await run(SYSTEM_NODE, ['scripts/check-node.mjs'], { cwd: root, env: { PATH: '/usr/bin:/bin' } });
  assert.equal(answer.code, 1);
  assert.match(answer.output, /needs Node\.js 22\.18 or newer.*source scripts\/use-node\.sh/);
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  // No preinstall: npm runs it only after fetching everything (engine-strict stops first), and
  // the image's `npm ci` runs before the scripts are copied in.
  for (const hook of ['prestart', 'pretest']) assert.equal(scripts[hook], 'node scripts/check-node.mjs', hook);
});

/** A PATH with node and the few programs the set-up uses, and no redis-server. */
function pathWithoutRedis(): string {
  const bin = mkdtempSync(join(tmpdir(), 'tessera-bin-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const program of ['id', 'runuser']) {
    const found = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => join(d, program)).find(existsSync);
    if (found) symlinkSync(found, join(bin, program));
  }
  return bin;
}

test('without redis-server, the cluster tests are skipped with one line naming the package, and the run passes', async () => {
  const bin = pathWithoutRedis();
  try {
    const env: NodeJS.ProcessEnv = { PATH: bin, HOME: tmpdir() };
    const answer = await run(process.execPath, ['--test', '--test-reporter=spec', 'test/cluster.test.ts'], { cwd: root, env });
    assert.equal(answer.code, 0, answer.output);
    assert.doesNotMatch(answer.output, /ENOENT|Error/);
    const skipped = answer.output.split('\n').filter((l) => l.includes('# needs redis-server, not installed: apt-get install redis-server'));
    assert.ok(skipped.length >= 5, answer.output);
    assert.match(answer.output, /ℹ pass 0\n/);
    assert.match(answer.output, /ℹ fail 0\n/);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

/** PIDs of processes (other than this one's children's readers) whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const { test: testWithPostgres } = needing([POSTGRES]);

testWithPostgres('under CI=true a missing redis-server fails the file, and the PostgreSQL its set-up had started is stopped', async () => {
  const bin = pathWithoutRedis();
  // A private temp dir for the child: its PostgreSQL's data directory is found there by name.
  const temp = mkdtempSync(join(tmpdir(), 'tessera-ci-'));
  chmodSync(temp, 0o755); // PostgreSQL runs as the postgres user when tests run as root
  try {
    const env: NodeJS.ProcessEnv = { PATH: bin, HOME: tmpdir(), TMPDIR: temp, CI: 'true' };
    const answer = await run(process.execPath, ['--test', '--test-reporter=spec', 'test/cluster.test.ts'], { cwd: root, env });
    assert.notEqual(answer.code, 0, 'a missing program fails under CI');
    assert.match(answer.output, /redis-server is not installed \(Debian package redis-server\)/);
    assert.doesNotMatch(answer.output, /uncaught|unhandled/i);
    assert.deepEqual(processesMentioning(temp), [], 'no private PostgreSQL left running');
    assert.deepEqual(readdirSync(temp), [], 'its data directory removed');
  } finally {
    rmSync(bin, { recursive: true, force: true });
    rmSync(temp, { recursive: true, force: true });
  }
});
