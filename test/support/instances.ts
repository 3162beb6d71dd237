// Real Tessera instances for the cluster tests: the compiled server (`node dist/server/main.js`)
// as separate processes sharing a private PostgreSQL, each on its own loopback port.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { http } from '../../bench/lib/game-client.ts';
import { freePort } from './ports.ts';

const MAIN = fileURLToPath(new URL('../../dist/server/main.js', import.meta.url));

export interface Instance {
  name: string;
  base: string;
  ws: string;
  proc: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      TESSERA_INSTANCE_ID: name,
      TESSERA_BOT_WORKERS: '1',
      TESSERA_WARMUP_LEVEL: 'random',
      TESSERA_BOT_DEADLINE_MS: '1000',
      TESSERA_WS_RATE: '1000',
      TESSERA_WS_BURST: '1000',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  proc.stdout!.on('data', (c: Buffer) => log.push(...c.toString().split('\n').filter(Boolean)));
  proc.stderr!.on('data', (c: Buffer) => log.push(...c.toString().split('\n').filter(Boolean)));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`instance ${name} exited (${proc.exitCode}): ${log.join('\n')}`);
    const ready = await http(base, 'GET', '/readyz', undefined, 1000).catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > until) throw new Error(`instance ${name} not ready: ${log.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    base,
    ws: `ws://127.0.0.1:${port}/ws`,
    proc,
    log,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
