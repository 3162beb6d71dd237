// The server's modules import one way: no module reaches itself through its imports.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain .mjs script without types
import { importCircles } from '../scripts/import-circles.mjs';

test('no import circle among the server modules', () => {
  const circles: string[][] = importCircles(fileURLToPath(new URL('../server', import.meta.url)));
  assert.deepEqual(circles, []);
});
