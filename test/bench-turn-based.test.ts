// The turn-based benchmark (bench/turn-based.ts) runs end to end with very small counts and
// writes its JSON: idle games at two sizes, "your games", every moving game's move told by one
// notification received by the loopback push service. Its figures are not judged here.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const worker = join(root, 'dist', 'server', 'pool', 'worker.js');

test('bench/turn-based.ts with tiny counts writes its results', { timeout: 180_000, skip: existsSync(worker) ? false : 'run `npm run build` first' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-turn-based-test-'));
  try {
    const out = join(dir, 'turn-based.json');
    const args = ['--expose-gc', join(root, 'bench', 'turn-based.ts'), '--games', '30', '--moving', '3', '--rounds', '1', '--yours', '4', '--out', out, '--no-docs'];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 170_000 }); // for a hang: ~11 s on a quiet box
    assert.equal(r.status, 0, `bench exited ${r.status} ${r.signal ?? ''}\n${r.stderr.slice(-3000)}`);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(
      result.idle.map((s: { games: number }) => s.games),
      [3, 30],
    );
    assert.equal(result.yourGames.listed, 4, 'the player with 4 games sees them');
    assert.equal(result.moving.rounds[0].moves, 3);
    assert.equal(result.moving.rounds[0].notifications, 3, 'each move told the other player once');
    assert.equal(result.moving.pushCounts.sent, 3);
    // Thread CPU is counted in steps of a few ms: three moves may read 0.
    assert.ok(Number.isFinite(result.moving.mainCpuPerMoveMs) && result.moving.mainCpuPerMoveMs >= 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
