// Where the main thread's time goes, from a V8 CPU profile of the server: self time by function
// and by file (idle excluded from the shares). Take the profile under the games load with
//
//   node bench/main-thread/run.ts . --node-args=--cpu-prof,--cpu-prof-dir=/tmp/prof
//   node bench/main-thread/profile-summary.ts /tmp/prof/<the main thread's .cpuprofile> [--top=30]
//
// (the main thread's profile is the largest file; a worker that is terminated writes none).

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const top = Number(values.top);

const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) selfUs.set(id, (selfUs.get(id) ?? 0) + profile.timeDeltas[i]);

const fileOf = (url: string): string => {
  if (!url) return '(native)';
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged) return packaged[1];
  return url.includes('/dist/') ? url.slice(url.indexOf('/dist/') + 6) : url;
};

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let busy = 0;
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = (byNode.get(id) as ProfileNode).callFrame;
  if (functionName === '(idle)') continue;
  busy += us;
  const file = fileOf(url);
  const name = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  byFile.set(file.startsWith('node:') ? 'node: internals' : file, (byFile.get(file.startsWith('node:') ? 'node: internals' : file) ?? 0) + us);
}

const table = (title: string, rows: Map<string, number>) => {
  console.log(`\n${title}\n| self ms | share of busy | |\n|---|---|---|`);
  for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${(us / 1000).toFixed(1)} | ${((100 * us) / busy).toFixed(1)} % | ${name} |`);
};
console.log(`busy ${(busy / 1000).toFixed(0)} ms of ${(profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000).toFixed(0)} ms profiled`);
table('by function', byFunction);
table('by file', byFile);
