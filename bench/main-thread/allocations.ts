// Where the main thread allocates: attaches to a server started with --inspect=<port> (e.g. by
// `node bench/main-thread/run.ts . --nice --node-args=--inspect=127.0.0.1:9339`), samples every
// allocation site for `--seconds` (objects the GC has already collected included: what the heap
// profile at exit leaves out), and prints the sites by bytes and their share.
//
//   node bench/main-thread/allocations.ts [--port=9339] [--after=25] [--seconds=40] [--out=file] [--survivors]
//
// --survivors leaves out what the scavenges collected: what is left outlived the young
// generation, i.e. what the old space grows by and the full GCs collect.

import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    survivors: { type: 'boolean', default: false },
    port: { type: 'string', default: '9339' },
    after: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '40' },
    out: { type: 'string', default: '' },
  },
});

async function target(): Promise<string> {
  for (let i = 0; i < 600; i++) {
    try {
      const list = (await (await fetch(`http://127.0.0.1:${values.port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
      if (list[0]) return list[0].webSocketDebuggerUrl;
    } catch {}
    await sleep(100);
  }
  throw new Error(`no inspector on port ${values.port}`);
}

const socket = new WebSocket(await target());
await new Promise((r) => socket.once('open', r));
let nextId = 1;
const pending = new Map<number, (result: unknown) => void>();
socket.on('message', (data) => {
  const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
  if (message.id !== undefined) pending.get(message.id)?.(message.result);
});
const send = (method: string, params: object = {}) =>
  new Promise<any>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });

await sleep(Number(values.after) * 1000);
await send('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !values.survivors });
await sleep(Number(values.seconds) * 1000);
const { profile } = await send('HeapProfiler.stopSampling');
socket.close();
if (values.out) writeFileSync(values.out, JSON.stringify(profile));

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
const bySite = new Map<string, number>();
let total = 0;
(function walk(n: Node, caller: string) {
  const f = n.callFrame;
  const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/.*\/(dist|node_modules)\//, '')}:${f.lineNumber + 1}`;
  // Builtins (JSON.stringify, Array.map…) are named by who called them.
  const key = f.url === '' ? `${site} ← ${caller}` : site;
  total += n.selfSize;
  bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, f.url === '' ? caller : site);
})(profile.head, '(root)');
console.log(`${(total / 1e6).toFixed(1)} MB allocated in ${values.seconds} s (sampled)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(bytes / 1e6).toFixed(2).padStart(8)} MB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${site}`);
