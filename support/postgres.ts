// A private PostgreSQL for tests and benchmarks: initdb into a throwaway directory, started on a
// free loopback port, stopped and removed afterwards. PostgreSQL refuses to run as root (CI runs
// as root), so there it runs as the `postgres` system user, which owns the directory.

import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './server.ts';

const run = promisify(execFile);

/** Debian's binaries (/usr/lib/postgresql/<version>/bin), newest version first; else the PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : '';
}

/** Where a PostgreSQL program is: a path, or a bare name to find on the PATH. */
export function postgresProgram(name: string): string {
  const bin = binDir();
  return bin ? join(bin, name) : name;
}

export interface PrivatePostgres {
  /** postgres://… of the `postgres` database. */
  url: string;
  /** A new empty database; returns its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-pg-'));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? 'postgres' : userInfo().username;
  const as = (cmd: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', postgresProgram(cmd), ...args]) : run(postgresProgram(cmd), args));
  const data = join(dir, 'data');
  const stop = async () => {
    if (existsSync(join(data, 'postmaster.pid'))) await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  let port: number;
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await as('initdb', ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    port = await freePort();
    // Throwaway data: no fsync; the socket goes into the temp dir, not /var/run.
    await as('pg_ctl', [
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=100`,
      'start',
    ]);
  } catch (e) {
    // Half started: stop what did start and remove the directory before failing.
    await stop();
    throw e;
  }
  const url = `postgres://${user}@127.0.0.1:${port}/postgres`;
  let n = 0;
  return {
    url,
    async database(name) {
      const db = `${name.replace(/\W/g, '_')}_${++n}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${db}`);
      } finally {
        await client.end();
      }
      return `postgres://${user}@127.0.0.1:${port}/${db}`;
    },
    stop,
  };
}
