import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root directory (the one holding package.json), found from this module's own
 * location: `src/` when run from the sources under tsx, `dist/` when run from the production
 * bundle (`npm run build`). Files the service reads at run time (migrations, SQL definitions,
 * the pages' assets, the dashboard's build, schema.graphql) are named from here, so both work.
 */
function findRoot(start: string): string {
  for (let dir = start; ; ) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${start}`);
    dir = up;
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path under the project's root, from its parts relative to the root. */
export const fromRoot = (...parts: string[]): string => path.join(PROJECT_ROOT, ...parts);
