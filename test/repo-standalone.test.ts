// The project reads nothing outside its own folder: a user's clone has nothing beside it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', '.tools', 'data', 'docs', 'test-results']);
const CODE = /\.(ts|mjs|js|sh|json|html|css)$|^Dockerfile$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (CODE.test(entry.name)) yield path;
  }
}

test('no source, script or config file reaches outside the repository (../shared and the like)', () => {
  const outside = /\.\.\/(\.\.\/)*shared\b|\/work\/shared/;
  const offenders = [...sourceFiles(root)].filter((f) => f !== fileURLToPath(import.meta.url) && outside.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
  assert.deepEqual(offenders, []);
});
