// The main thread's profile summary reads a V8 CPU profile: self time by owner, function and file,
// idle left out, and only the samples inside --from/--to when given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../bench/main-thread/profile-summary.ts', import.meta.url));

const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url, lineNumber: 9 } });

/** Samples of 1 ms each: the first second all in startup's compiling (node:), then a mix. */
function profileFile(): string {
  const nodes = [
    frame(1, '(idle)', ''),
    frame(2, 'postMessage', ''),
    frame(3, 'compile', 'node:internal/modules/esm/utils'),
    frame(4, 'delta', 'file:///srv/tessera/dist/server/games/view.js'),
    frame(5, 'send', 'file:///srv/tessera/node_modules/ws/lib/sender.js'),
  ];
  const samples: number[] = [];
  for (let i = 0; i < 1000; i++) samples.push(3);
  // After the first second, per 10 samples: 4 idle, 3 native, 2 ours, 1 a package's.
  for (let i = 0; i < 100; i++) samples.push(1, 1, 1, 1, 2, 2, 2, 4, 4, 5);
  const path = join(mkdtempSync(join(tmpdir(), 'tessera-profile-')), 'main.cpuprofile');
  writeFileSync(path, JSON.stringify({ nodes, samples, timeDeltas: samples.map(() => 1000) }));
  return path;
}

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

test('the profile summary splits busy time by owner, idle excluded, inside the window asked for', () => {
  const path = profileFile();
  const windowed = run(path, '--from=1', '--to=5');
  assert.match(windowed, /^busy 600 ms of 1000 ms profiled/);
  assert.match(windowed, /\| 300\.0 \| 50\.0 % \| Node's and V8's \(native, node: internals\) \|/);
  assert.match(windowed, /\| 200\.0 \| 33\.3 % \| ours \(server\/, bot-engine\/\) \|/);
  assert.match(windowed, /\| 100\.0 \| 16\.7 % \| packages \(node_modules\) \|/);
  assert.match(windowed, /\| 200\.0 \| 33\.3 % \| delta server\/games\/view\.js:10 \|/);
  assert.doesNotMatch(windowed, /compile/, 'startup is outside the window');
  // Without a window the startup second counts: Node's share grows to 1300 of 1600 ms.
  assert.match(run(path), /\| 1300\.0 \| 81\.3 % \| Node's and V8's/);
});
