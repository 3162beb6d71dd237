// Benchmarks write their results into their own section of docs/BENCHMARKS.md (between
// markers, so each benchmark updates only its part) and as JSON under docs/results/.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const docs = join(process.cwd(), 'docs');

export function writeReport(name: string, title: string, markdown: string, results: unknown): void {
  mkdirSync(join(docs, 'results'), { recursive: true });
  writeFileSync(join(docs, 'results', `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const file = join(docs, 'BENCHMARKS.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  writeMarkedSection(
    file,
    start,
    end,
    `${start}\n## ${title}\n\n${markdown}\n${end}`,
    '# Benchmarks\n\nEvery number here was measured by a script in `bench/`; each section says which, when, and on what machine.\n',
  );
  console.log(`wrote docs/BENCHMARKS.md (${name}) and docs/results/${name}.json`);
}

/** Replaces the part of `file` from `start` to `end` (the markers included) with `section`,
 * which carries both markers; appends it when the markers are missing, to `empty` when the file is. */
export function writeMarkedSection(file: string, start: string, end: string, section: string, empty: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : empty;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  writeFileSync(file, a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + end.length) : `${text.trimEnd()}\n\n${section}\n`);
}
