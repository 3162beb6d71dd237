// Where the repository and the compiled server are, whether this runs compiled (dist/support/...)
// or from source (support/...).

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const compiled = import.meta.url.endsWith('.js');
/** The repository root. */
export const repoRoot = compiled ? join(here, '..', '..') : join(here, '..');
/** The compiled server entry and pool worker (always JavaScript). */
export const serverMain = join(repoRoot, 'dist', 'server', 'main.js');
