// A private Redis for tests and benchmarks: no persistence, on a free loopback port, stopped afterwards.

import { spawn } from 'node:child_process';
import { freePort } from './server.ts';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    proc.stdout!.on('data', (c: Buffer) => {
      out += c;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    // Not installed (ENOENT) or not runnable: a rejection, not an uncaught 'error' event.
    proc.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(e.code === 'ENOENT' ? 'redis-server is not installed (Debian package redis-server)' : `redis-server did not start: ${e.message}`));
    });
  }).catch((e) => {
    proc.kill('SIGKILL');
    throw e;
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
