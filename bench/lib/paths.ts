// Where things are, whether the benchmarks run compiled (dist/bench/...) or from source.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const compiled = import.meta.url.endsWith('.js');
/** The repository root. */
export const repoRoot = compiled ? join(here, '..', '..', '..') : join(here, '..', '..');
/** Extension of sibling modules run as separate processes or workers. */
export const ext = compiled ? '.js' : '.ts';
/** A file of bench/ by its path relative to bench/, as it exists in this build. */
export const benchFile = (rel: string): string => join(compiled ? join(repoRoot, 'dist', 'bench') : join(repoRoot, 'bench'), rel.replace(/\.ts$/, ext));
/** The compiled server entry and pool worker (always JavaScript). */
export const serverMain = join(repoRoot, 'dist', 'server', 'main.js');
