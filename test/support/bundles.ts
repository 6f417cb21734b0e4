import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fromRoot } from '../../src/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding this run's bundles of BUNDLED_ENTRIES (test/support/global-setup.ts). */
    bundleDir: string;
  }
}

/**
 * The entry points tests start as processes, and the file each is bundled to. A process started from
 * the sources (`node --import tsx`) loads and transpiles every module at each start; the bundle is
 * what `npm start` runs (dist/main.mjs), and starts in about two thirds of the CPU time.
 */
export const BUNDLED_ENTRIES: Readonly<Record<string, string>> = {
  'src/main.ts': 'main.mjs',
  'src/cli/index.ts': 'cli.mjs',
};

const PREFIX = 'test-run-';

/**
 * esbuild's arguments from package.json's `build` script (`esbuild src/main.ts … --outfile=dist/main.mjs`),
 * less its entry and output: the tests' bundles are built exactly as production's is.
 */
async function buildFlags(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(fromRoot('package.json'), 'utf8')) as { scripts: { build: string } };
  const [tool, entry, ...flags] = pkg.scripts.build.split(' ').filter(Boolean);
  const rest = flags.filter((f) => !f.startsWith('--outfile='));
  if (tool !== 'esbuild' || entry !== 'src/main.ts' || rest.length !== flags.length - 1) {
    throw new Error(`test/support/bundles.ts reads package.json's build script as "esbuild src/main.ts … --outfile=…"; it is now "${pkg.scripts.build}"`);
  }
  return rest;
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Builds every entry of BUNDLED_ENTRIES into a folder of this run's own (dist/test-run-<pid>: runs
 * side by side in one work tree do not share one), once for the run (test/support/global-setup.ts),
 * and again with `rebuild` before each rerun in watch mode, which would otherwise start stale code.
 * Under dist/, so the bundles find node_modules and the project's root as dist/main.mjs does. Folders
 * a run that was killed left behind are removed.
 */
export async function buildTestBundles(): Promise<{ dir: string; rebuild: () => Promise<void>; remove: () => Promise<void> }> {
  const dist = fromRoot('dist');
  await mkdir(dist, { recursive: true });
  for (const name of await readdir(dist)) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && pid > 0 && pid !== process.pid && !isRunning(pid)) await rm(path.join(dist, name), { recursive: true, force: true });
  }
  const dir = path.join(dist, `${PREFIX}${process.pid}`);
  const esbuild = fromRoot('node_modules/.bin/esbuild');
  const rebuild = async () => {
    const flags = await buildFlags();
    await Promise.all(
      Object.entries(BUNDLED_ENTRIES).map(([entry, file]) =>
        promisify(execFile)(esbuild, [entry, ...flags, `--outfile=${path.join(dir, file)}`], { cwd: fromRoot() }),
      ),
    );
  };
  await rebuild();
  return { dir, rebuild, remove: () => rm(dir, { recursive: true, force: true }) };
}
