// Import circles among a folder's TypeScript modules (default: server/): the strongly connected
// components of the graph of relative imports, type-only imports included. Prints each circle and
// the count; exits 1 when there is one. `node scripts/import-circles.mjs [folder]`.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export function importCircles(folder) {
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
  // Tarjan's strongly connected components.
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
      component.push(relative(process.cwd(), w));
    } while (w !== v);
    if (component.length > 1 || graph.get(v).includes(v)) circles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const circles = importCircles(process.argv[2] ?? 'server');
  for (const c of circles) console.log(c.join(' <-> '));
  console.log(`${circles.length} import circle(s)`);
  process.exitCode = circles.length > 0 ? 1 : 0;
}
