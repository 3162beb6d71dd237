// Starts the real server (compiled dist/server/main.js) as a child process on a free loopback
// port, waits until /readyz says ready (every worker warm), and stops it with SIGTERM.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot, serverMain } from './paths.ts';

export interface ServerLogSummary {
  warn: number;
  error: number;
  messages: Record<string, number>;
  other: string[];
}

export interface RunningServer {
  url: string;
  port: number;
  pid: number;
  logFile: string;
  /** SIGTERM, wait for exit (SIGKILL after 15 s); resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Sends a signal (SIGKILL: resolves once the process is gone). */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** The server's log lines so far. */
  log(): string[];
  /** Warnings and errors the server logged so far, by message, and the last lines that are not
   * log lines (a crash's stack, Node's own warnings). */
  logSummary(): ServerLogSummary;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The node flags `npm start` and the Dockerfile run the server with (test/build-config.test.ts
 * holds the three in step): benchmarks measure the server as shipped. */
export const SHIPPED_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=100', '--max-semi-space-size=4'];

export interface ServerPlace {
  /** A checkout whose dist/server/main.js to run (default: this one), e.g. another commit's build. */
  root?: string;
  /** Node flags after the shipped ones, before the entry point, e.g. ['--trace-gc'] (V8 takes a
   * repeated flag's last value, so these override). */
  nodeArgs?: string[];
}

export async function startServer(env: Record<string, string> = {}, place: ServerPlace = {}): Promise<RunningServer> {
  const root = place.root ?? repoRoot;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-'));
  const logFile = join(dir, 'server.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...SHIPPED_NODE_FLAGS, ...(place.nodeArgs ?? []), place.root ? join(root, 'dist', 'server', 'main.js') : serverMain], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      TESSERA_DATA_DIR: join(dir, 'data'),
      TESSERA_MAX_GAMES: '100000',
      TESSERA_CREATES_PER_MINUTE: '1000000',
      TESSERA_WS_PER_IP: '100000',
      TESSERA_GAMES_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', fd, fd],
  });
  children.add(child);
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      children.delete(child);
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`server exited with ${exited} before ready:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 60 s:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    await sleep(100);
  }
  return {
    url,
    port,
    pid: child.pid!,
    logFile,
    async stop() {
      if (exited === undefined) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exit;
        clearTimeout(t);
      }
      rmSync(join(dir, 'data'), { recursive: true, force: true });
      return exited ?? null;
    },
    async kill(signal) {
      if (exited !== undefined) return;
      child.kill(signal);
      if (signal === 'SIGKILL') await exit;
    },
    log() {
      return readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    },
    logSummary() {
      const out: ServerLogSummary = { warn: 0, error: 0, messages: {}, other: [] };
      for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        if (!line.startsWith('{')) {
          if (line.trim()) out.other = [...out.other.slice(-29), line];
          continue;
        }
        try {
          const l = JSON.parse(line) as { level: number; msg: string };
          if (l.level >= 50) out.error++;
          else if (l.level >= 40) out.warn++;
          else continue;
          out.messages[l.msg] = (out.messages[l.msg] ?? 0) + 1;
        } catch {
          // not JSON
        }
      }
      return out;
    },
  };
}
