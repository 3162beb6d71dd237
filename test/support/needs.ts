// Tests that need a program the machine may lack (PostgreSQL, Redis, Chromium, HAProxy): where it is
// missing they are skipped, each with one line naming the Debian package to install, so
// `npm test` passes on a fresh machine. Under CI=true nothing is skipped: the set-up then fails
// on the missing program, so CI keeps proving what these tests cover.

import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { after as nodeAfter, before as nodeBefore, type HookFn, test as nodeTest, type TestFn, type TestOptions } from 'node:test';
import { postgresProgram } from '../../support/postgres.ts';

export interface Need {
  /** The program looked for: a path, or a name on the PATH. */
  program: string;
  /** The Debian package that installs it. */
  debianPackage: string;
}

export const POSTGRES: Need = { program: postgresProgram('initdb'), debianPackage: 'postgresql' };
export const REDIS: Need = { program: 'redis-server', debianPackage: 'redis-server' };
export const HAPROXY: Need = { program: 'haproxy', debianPackage: 'haproxy' };
export const CHROMIUM: Need = { program: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', debianPackage: 'chromium' };

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function installed(need: Need): boolean {
  if (isAbsolute(need.program)) return runnable(need.program);
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && runnable(join(dir, need.program)));
}

/** Why tests needing `needs` cannot run here (one line), or false: always false under CI=true. */
export function skipReason(...needs: Need[]): string | false {
  const missing = needs.filter((n) => !installed(n));
  if (missing.length === 0 || process.env.CI === 'true') return false;
  const names = missing.map((n) => n.program.split('/').pop());
  return `needs ${names.join(' and ')}, not installed: apt-get install ${missing.map((n) => n.debianPackage).join(' ')} (skipped; CI=true fails instead)`;
}

/**
 * node:test's `test`, `before` and `after` for a file whose set-up starts `needs`: where one is
 * missing (and not under CI) every test is skipped with the reason and the hooks do nothing.
 * `applies` narrows the skip to the tests that need them (by name); the hooks then still run
 * and must check `skip` themselves. With nothing missing these are node:test's own functions
 * (a wrapper would become every test's reported location).
 */
export function needing(needs: Need[], applies?: (name: string) => boolean) {
  const skip = skipReason(...needs);
  if (!skip) return { skip, test: nodeTest, before: nodeBefore, after: nodeAfter };
  const skipping = (name: string, options: TestOptions | TestFn, fn?: TestFn) => {
    const [opts, body] = typeof options === 'function' ? [{}, options] : [options, fn];
    return nodeTest(name, (applies?.(name) ?? true) ? { ...opts, skip } : opts, body);
  };
  const hook = (register: typeof nodeBefore) => (fn: HookFn) => register(applies ? fn : () => {});
  return { skip, test: skipping as typeof nodeTest, before: hook(nodeBefore), after: hook(nodeAfter) };
}
