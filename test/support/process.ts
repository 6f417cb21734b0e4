import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { fromRoot } from '../../src/paths.js';
import { BUNDLED_ENTRIES } from './bundles.js';

const CONFIG = (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { config?: { nodeFlags?: string; nodeEnv?: string } }).config ?? {};
const words = (text = '') => text.split(' ').filter(Boolean);

/**
 * The node flags `npm start` runs the bundle with: package.json's `config.nodeFlags`, which the
 * start scripts pass as `$npm_package_config_nodeFlags` (docs/operations.md says why).
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = words(CONFIG.nodeFlags);

/**
 * The environment `npm start` adds for the process (`exec env $npm_package_config_nodeEnv node …`):
 * package.json's `config.nodeEnv`, `NAME=value` pairs (`MALLOC_ARENA_MAX=2`; docs/operations.md).
 * Every test and benchmark that runs the bundle as `npm start` would spreads it into the child's env.
 */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  words(CONFIG.nodeEnv).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`package.json config.nodeEnv: "${pair}" is not NAME=value`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);

export type Spawned = { child: ChildProcess; stdout: () => string; stderr: () => string; exit: Promise<number | null> };

/**
 * Runs one of the project's entry points (`src/main.ts`, `src/cli/index.ts`) as one node process,
 * without npm's own output, so signals reach our handlers directly: from its bundle, built once for
 * the run as `npm run build` builds dist/main.mjs (test/support/bundles.ts), rather than from the
 * sources under tsx, which loads and transpiles every module at each start. The documented commands
 * themselves (`npm start`, `npm run cli`) are run by test/docs/doc-examples.test.ts and
 * test/cli/json-output.test.ts.
 */
export function spawnTs(entry: string, args: string[], env: Record<string, string>): Spawned {
  return spawnNode([bundleOf(entry), ...args], env);
}

/** The path of this run's bundle of an entry point (test/support/bundles.ts). */
export function bundleOf(entry: string): string {
  const bundle = BUNDLED_ENTRIES[entry];
  if (!bundle) throw new Error(`${entry} is not bundled for tests: add it to BUNDLED_ENTRIES (test/support/bundles.ts)`);
  return path.join(inject('bundleDir'), bundle);
}

/** The entry point from the sources under tsx, as `npm run dev` runs it (README.md): loads and transpiles every module. */
export function spawnSources(entry: string, args: string[], env: Record<string, string>): Spawned {
  return spawnNode(['--import', 'tsx', entry, ...args], env);
}

/** One node process with these arguments (the production bundle: `dist/main.mjs`, as `npm start` runs it). */
export function spawnNode(nodeArgs: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, nodeArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/**
 * How many processes `runTs` runs at once in one test file: tests that run commands concurrently
 * overlap one command's waits with another's work, and the machine's two cores are not asked for more.
 */
const RUNNING_AT_ONCE = 2;
let running = 0;
const queued: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= RUNNING_AT_ONCE) await new Promise<void>((resolve) => queued.push(resolve));
  else running++;
  // A freed slot passes straight to the next queued command (`running` stays as it is).
  return () => (queued.length ? queued.shift()!() : running--);
}

/**
 * Runs an entry point to its end. A process still running after `deadlineMs` is killed and the
 * test fails with what it printed, rather than at the test's timeout with nothing to go on (a
 * loaded CI machine once took more than 30 s to start one). The deadline counts from the start of
 * the process, not from the wait for a slot (RUNNING_AT_ONCE).
 */
export async function runTs(entry: string, args: string[], env: Record<string, string>, deadlineMs = 50_000) {
  const release = await slot();
  try {
    return await runToEnd(entry, args, env, deadlineMs);
  } finally {
    release();
  }
}

/**
 * A command runs a few queries and ends: V8's optimizing compiler, which recompiles Prisma's query
 * compiler (WebAssembly) in the background once it runs hot, only costs CPU there (about 0.5 of a
 * command's 1.8 CPU-s). Its baseline compiler alone runs the same code.
 */
const COMMAND_NODE_FLAGS = ['--liftoff-only'];

async function runToEnd(entry: string, args: string[], env: Record<string, string>, deadlineMs: number) {
  const p = spawnNode([...COMMAND_NODE_FLAGS, bundleOf(entry), ...args], env);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
  const code = await Promise.race([p.exit, deadline]);
  clearTimeout(timer);
  if (code === 'deadline') {
    p.child.kill('SIGKILL');
    throw new Error(`${entry} ${args.join(' ')} still running after ${deadlineMs} ms\nstdout: ${p.stdout()}\nstderr: ${p.stderr()}`);
  }
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
