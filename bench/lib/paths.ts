// Where the benchmarks' own files are, whether they run compiled (dist/bench/...) or from source.

import { join } from 'node:path';
import { compiled, repoRoot } from '../../support/paths.ts';

/** Extension of sibling modules run as separate processes or workers. */
export const ext = compiled ? '.js' : '.ts';
/** A file of bench/ by its path relative to bench/, as it exists in this build. */
export const benchFile = (rel: string): string => join(compiled ? join(repoRoot, 'dist', 'bench') : join(repoRoot, 'bench'), rel.replace(/\.ts$/, ext));
