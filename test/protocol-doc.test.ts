// docs/PROTOCOL.md and the code say the same: every error code with its HTTP status and whether
// WebSocket frames carry it, the client frames' schemas exactly, and the server frame types.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERRORS } from '../server/errors.ts';
import { CLIENT_FRAMES, SERVER_FRAME_TYPES } from '../server/ws/protocol.ts';

const doc = readFileSync(new URL('../docs/PROTOCOL.md', import.meta.url), 'utf8');

function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}`);
  assert.ok(start >= 0, `PROTOCOL.md has a section "${title}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

test('the error table lists exactly the catalogue: code, HTTP status, WebSocket or not, meaning', () => {
  const rows = section('5. Errors')
    .split('\n')
    .map((line) => /^\| `([a-z_]+)` \| (\d+|—) \| (yes|—) \| (.*) \|$/.exec(line))
    .filter((m) => m !== null);
  const documented = Object.fromEntries(rows.map((m) => [m[1], { status: m[2] === '—' ? null : Number(m[2]), ws: m[3] === 'yes', meaning: m[4] }]));
  const code = Object.fromEntries(Object.entries(ERRORS).map(([c, d]) => [c, { status: d.status, ws: d.ws, meaning: d.meaning }]));
  assert.deepEqual(documented, code);
});

test('the client frame schemas in the doc are the ones the server checks', () => {
  const block = /```json\n([\s\S]*?)\n```/.exec(section('3. Client frames'));
  assert.ok(block, 'section 3 has the schemas as a JSON block');
  const withoutDescriptions = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutDescriptions)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([k]) => k !== 'description')
              .map(([k, v]) => [k, withoutDescriptions(v)]),
          )
        : value;
  assert.deepEqual(JSON.parse(block[1]), withoutDescriptions(CLIENT_FRAMES));
});

test('the server frames table lists exactly the frame types the server sends', () => {
  const types = [...section('4. Server frames').matchAll(/^\| `\{"type":"([a-z]+)"/gm)].map((m) => m[1]);
  assert.deepEqual(types.sort(), [...SERVER_FRAME_TYPES].sort());
});
