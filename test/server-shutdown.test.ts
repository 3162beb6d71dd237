// Graceful shutdown of the real server process: SIGTERM closes sockets with 1001, lets the bot
// move in flight finish, closes the pool and exits 0. A failing worker module fails the boot.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Client, createGame } from './server-helpers.ts';

const main = fileURLToPath(new URL('../dist/server/main.js', import.meta.url));

/** Starts dist/server/main.js on a free port; resolves once it logs "tessera ready". */
async function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; logs: any[] }> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TESSERA_BOT_WORKERS: '1', TESSERA_WARMUP_LEVEL: 'random', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: any[] = [];
  let buffered = '';
  let base = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const entry = JSON.parse(line);
          logs.push(entry);
          if (entry.msg === 'tessera ready') {
            base = entry.url;
            resolve();
          }
        } catch {}
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  await ready.catch(() => {});
  return { child, base, logs };
}

test('SIGTERM: sockets closed with 1001, clean exit 0', async () => {
  const { child, base, logs } = await startProcess({});
  assert.ok(base, 'server came up');
  const { id, tokens } = await createGame(base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const c = await Client.join(`${base.replace('http', 'ws')}/ws`, id, tokens.get(0));
  await c.peekState();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const closed = await c.closedWith();
  assert.equal(closed.code, 1001);
  assert.ok(c.frames.some((f) => f.type === 'bye'));
  const [code] = await exited;
  assert.equal(code, 0);
  assert.ok(logs.some((l) => l.msg === 'shut down cleanly'));
  const sizing = logs.find((l) => l.pool?.workers);
  assert.equal(sizing.pool.workers, 1, 'pool sizing logged at boot with its inputs');
  assert.ok('availableParallelism' in sizing.pool && 'quotaSource' in sizing.pool);
});

test('a worker module that throws at load fails the boot with a clear error', async () => {
  const { child, logs } = await startProcess({ TESSERA_WORKER_FILE: fileURLToPath(new URL('./fixtures/pool-throw-worker.mjs', import.meta.url)) });
  const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
  assert.equal(code, 1);
  const fatal = logs.find((l) => l.level === 60);
  assert.match(fatal.msg, /bot pool failed to start: .*bot tables missing \(fixture\)/);
});

test('a port already in use: one clear line on stderr and exit 2, no stack', async () => {
  const first = await startProcess({ TESSERA_DATA_DIR: ':memory:' });
  try {
    const port = new URL(first.base).port;
    const second = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: port, HOST: '127.0.0.1', TESSERA_DATA_DIR: ':memory:', TESSERA_BOT_WORKERS: '1', TESSERA_WARMUP_LEVEL: 'random' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    second.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(second, 'exit');
    assert.equal(code, 2);
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
  } finally {
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
  }
});
