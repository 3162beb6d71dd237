// Where the main thread's time goes, from a V8 CPU profile of the server: self time by function,
// by file and by owner (ours, libraries', Node's and V8's; idle excluded from the shares). Take the
// profile under the games load with
//
//   node bench/main-thread/run.ts . --node-args=--cpu-prof,--cpu-prof-dir=/tmp/prof
//   node bench/main-thread/profile-summary.ts /tmp/prof/<the main thread's .cpuprofile> [--top=30] [--from=22 --to=80]
//
// --from/--to keep the samples between those seconds of the profile (it starts with the process,
// so startup's module compiling stays out of a window in the load).
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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, from: { type: 'string', default: '0' }, to: { type: 'string', default: 'Infinity' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const top = Number(values.top);
const [fromUs, toUs] = [Number(values.from) * 1e6, Number(values.to) * 1e6];

const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
let clockUs = 0;
let profiledUs = 0;
for (const [i, id] of profile.samples.entries()) {
  // A sample's self time is the interval that ends at it: kept when that end is in (from, to].
  clockUs += profile.timeDeltas[i];
  if (clockUs <= fromUs || clockUs > toUs) continue;
  profiledUs += profile.timeDeltas[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + profile.timeDeltas[i]);
}

const fileOf = (url: string): string => {
  if (!url) return '(native)';
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged) return packaged[1];
  return url.includes('/dist/') ? url.slice(url.indexOf('/dist/') + 6) : url;
};

/** Whose code a file is: the product's, a package's, or the platform's (Node's JavaScript, and
 * native code: V8, libuv, the collector). */
const ownerOf = (file: string): string => {
  if (file.startsWith('server/') || file.startsWith('bot-engine/')) return 'ours (server/, bot-engine/)';
  if (file === '(native)' || file.startsWith('node:')) return "Node's and V8's (native, node: internals)";
  return 'packages (node_modules)';
};

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
const byOwner = new Map<string, number>();
let busy = 0;
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = (byNode.get(id) as ProfileNode).callFrame;
  if (functionName === '(idle)') continue;
  busy += us;
  const file = fileOf(url);
  const name = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const fileKey = file.startsWith('node:') ? 'node: internals' : file;
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
  const owner = ownerOf(file);
  byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
}

const table = (title: string, rows: Map<string, number>) => {
  console.log(`\n${title}\n| self ms | share of busy | |\n|---|---|---|`);
  for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${(us / 1000).toFixed(1)} | ${((100 * us) / busy).toFixed(1)} % | ${name} |`);
};
console.log(`busy ${(busy / 1000).toFixed(0)} ms of ${(profiledUs / 1000).toFixed(0)} ms profiled`);
table('by owner', byOwner);
table('by function', byFunction);
table('by file', byFile);
