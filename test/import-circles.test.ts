// The server's modules import one way: no module reaches itself through its imports, and no
// folder does either (a feature's contract never imports a storage backend that implements it).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs script without types
import { folderCircles, importCircles } from '../scripts/import-circles.mjs';

const SERVER = fileURLToPath(new URL('../server', import.meta.url));

test('no import circle among the server modules', () => {
  const circles: string[][] = importCircles(SERVER);
  assert.deepEqual(circles, []);
});

test('no import circle among the server folders (a file of the root counts as a folder)', () => {
  const circles: string[][] = folderCircles(SERVER);
  assert.deepEqual(circles, []);
});
