// Import circles among a folder's TypeScript modules (default: server/): the strongly connected
// components of the graph of relative imports, type-only imports included, between files and
// between folders (a file directly in the root counts as a folder of its own: metrics.ts, app.ts).
// Prints each circle and the count; exits 1 when there is one.
// `node scripts/import-circles.mjs [folder]`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export function importCircles(folder) {
  return strongComponents(importGraph(folder)).map((c) => c.map((f) => relative(process.cwd(), f)));
}

/** Circles among the folders: each names its folders relative to the root ('.' for none). */
export function folderCircles(folder) {
  const root = resolve(folder);
  const unit = (file) => (dirname(file) === root ? file : dirname(file));
  const graph = new Map();
  for (const [file, targets] of importGraph(folder)) {
    const from = unit(file);
    if (!graph.has(from)) graph.set(from, []);
    for (const t of targets) if (unit(t) !== from && !graph.get(from).includes(unit(t))) graph.get(from).push(unit(t));
  }
  for (const targets of graph.values()) for (const t of targets) if (!graph.has(t)) graph.set(t, []);
  return strongComponents(graph).map((c) => c.map((f) => relative(root, f)));
}

/** Each module of the folder with the modules of it that it imports. */
function importGraph(folder) {
  const root = resolve(folder);
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(path);
    }
  };
  walk(root);
  const graph = new Map();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const targets = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gms)].map((m) => resolve(dirname(file), m[1]));
    graph.set(
      file,
      targets.filter((t) => files.includes(t)),
    );
  }
  return graph;
}

/** The graph's circles: Tarjan's strongly connected components of more than one node (or one
 * that reaches itself), each sorted. */
function strongComponents(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const circles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v).includes(v)) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const circles = importCircles(process.argv[2] ?? 'server');
  for (const c of circles) console.log(c.join(' <-> '));
  console.log(`${circles.length} import circle(s)`);
  const folders = folderCircles(process.argv[2] ?? 'server');
  for (const c of folders) console.log(c.join(' <-> '));
  console.log(`${folders.length} folder import circle(s)`);
  process.exitCode = circles.length + folders.length > 0 ? 1 : 0;
}
