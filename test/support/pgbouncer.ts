import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.js';

/** Debian's PgBouncer (`apt-get install pgbouncer`; 1.18 on bookworm). */
export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export const hasPgBouncer = (): boolean => existsSync(PGBOUNCER);

export type PgBouncer = {
  /** `serverUrl` with the pooler's host and port: same user, password and path. */
  url: (serverUrl: string) => string;
  port: number;
  stop: () => Promise<void>;
};

type Options = {
  /** The PostgreSQL server behind it (any database path; its user and password log in; clients use that user). */
  serverUrl: string;
  /** Server connections per database (pool_size); every client beyond waits its turn. */
  poolSize: number;
  /**
   * Extra `[databases]` entries, name → the database they reach, each with its own pool size
   * (aliases of one database with a smaller pool). Any other name reaches the database of that name.
   */
  aliases?: Record<string, { dbname: string; poolSize: number }>;
};

function quote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** PgBouncer refuses to run as root; as root it runs as the `postgres` OS user, like the embedded server. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PgBouncer in transaction mode in front of `serverUrl`, on a free loopback port: clients are
 * trusted (any password), server connections log in as the client's user with the URL's password. A session
 * lasts one transaction: what a client leaves on a server connection (a named prepared statement,
 * LISTEN, a session lock, SET) is seen by the next client that gets it.
 */
export async function startPgBouncer(opts: Options): Promise<PgBouncer> {
  const server = new URL(opts.serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const target = (dbname?: string) => [`host=${server.hostname}`, `port=${server.port || 5432}`, ...(dbname ? [`dbname=${quote(dbname)}`] : [])].join(' ');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgbouncer-'));
  const port = await freePort();
  const aliases = Object.entries(opts.aliases ?? {}).map(([name, a]) => `${name} = ${target(a.dbname)} pool_size=${a.poolSize}`);
  const ini = [
    '[databases]',
    ...aliases,
    `* = ${target()}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    // The admin console (database `pgbouncer`: SHOW CLIENTS, SHOW SERVERS) for the URL's user.
    `admin_users = ${user}`,
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${opts.poolSize}`,
    // Every test file has its own database, so its own pool: idle server connections close soon and
    // all pools together stay well under the server's max_connections (the oldest idle one is
    // evicted to make room for another database's).
    'server_idle_timeout = 5',
    'max_user_connections = 100',
    'max_client_conn = 2000',
    // Clients wait for a server connection rather than fail (tests queue many on small pools).
    'query_wait_timeout = 120',
    'ignore_startup_parameters = extra_float_digits,options',
    'log_connections = 0',
    'log_disconnections = 0',
    'log_pooler_errors = 1',
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'pgbouncer.ini'), ini);
  // Clients are trusted; the server login takes the user's password from here.
  await writeFile(path.join(dir, 'userlist.txt'), `"${user.replace(/"/g, '""')}" "${password.replace(/"/g, '""')}"\n`);
  // The `postgres` OS user reads the files.
  await chmod(dir, 0o755);
  await chmod(path.join(dir, 'pgbouncer.ini'), 0o644);
  await chmod(path.join(dir, 'userlist.txt'), 0o644);

  const child = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], { ...runAs(), stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let recent = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      recent = (recent + text).slice(-4000);
      if (process.env.PGBOUNCER_LOG) process.stderr.write(text);
      if (text.includes('process up')) resolve();
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`pgbouncer exited during start-up: ${recent.trim()}`)));
  });

  const url = (serverUrl: string) => {
    const u = new URL(serverUrl);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: immediate shutdown (1.18), clients are cut; the servers' sessions end with them.
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  return { url, port, stop };
}
