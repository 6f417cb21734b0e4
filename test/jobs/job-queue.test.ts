import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { jobDefinitions } from '../../jobs/index.js';
import { JobQueue } from '../../src/queue/job-queue.js';
import { RETIRED_QUEUES } from '../../src/queue/job-types.js';
import { makeProject, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let projectId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({ projectId } = await makeProject(app));
});
afterAll(() => app.stop());

async function insertKey(key: string, expiresAt: Date) {
  await app.deps.prisma.idempotencyKey.create({ data: { scope: `project:${projectId}`, projectId, key, operation: 'POST /v1/payments', requestHash: 'h', responseStatus: 201, responseBody: '{}', expiresAt } });
}

describe('jobs on pg-boss', () => {
  it('a job sent to a queue is picked up by the worker and runs its handler', async () => {
    await insertKey('old', new Date(Date.now() - 1000));
    await insertKey('fresh', new Date(Date.now() + 86_400_000));
    await app.deps.prisma.$executeRawUnsafe(`INSERT INTO rate_limit.buckets (key, points, expire) VALUES ('ip:old', 3, $1), ('ip:live', 3, $2)`, Date.now() - 1000, Date.now() + 60_000);
    await app.deps.jobs.send('prune-idempotency-keys', {});
    const remaining = async () => (await app.deps.prisma.idempotencyKey.findMany({ where: { projectId } })).map((k) => k.key);
    let keys = await remaining();
    for (let i = 0; i < 100 && keys.includes('old'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      keys = await remaining();
    }
    expect(keys).toEqual(['fresh']);
    const buckets = await app.deps.prisma.$queryRawUnsafe<{ key: string }[]>(`SELECT key FROM rate_limit.buckets WHERE key LIKE 'ip:%' ORDER BY key`);
    expect(buckets.map((b) => b.key)).toEqual(['ip:live']);
  });

  it('a job sent inside a transaction that rolls back is never created', async () => {
    const before = await app.deps.prisma.$queryRawUnsafe<{ n: bigint }[]>(`select count(*)::bigint as n from pgboss.job where name = 'prune-idempotency-keys'`);
    await expect(
      app.deps.prisma.$transaction(async (tx) => {
        await app.deps.jobs.send('prune-idempotency-keys', { probe: 'rolled-back' }, { tx, startAfter: new Date(Date.now() + 3_600_000) });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await app.deps.prisma.$queryRawUnsafe<{ n: bigint }[]>(`select count(*)::bigint as n from pgboss.job where name = 'prune-idempotency-keys'`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('a job sent inside a committed transaction exists with the state change', async () => {
    const id = await app.deps.prisma.$transaction(async (tx) => {
      await tx.idempotencyKey.create({ data: { scope: `project:${projectId}`, projectId, key: 'with-job', operation: 'POST /v1/payments', requestHash: 'h', responseStatus: 201, responseBody: '{}', expiresAt: new Date(Date.now() + 60_000) } });
      return app.deps.jobs.send('prune-idempotency-keys', { probe: 'committed' }, { tx, startAfter: new Date(Date.now() + 3_600_000) });
    });
    const rows = await app.deps.prisma.$queryRawUnsafe<{ data: { probe: string } }[]>(`select data from pgboss.job where id = $1::uuid`, id);
    expect(rows[0]!.data.probe).toBe('committed');
  });

  it('a worker deletes the retired queues and the jobs left in them; an API process leaves them', async () => {
    // An upgraded database: the releases before the sweeps made these queues and left jobs in them.
    const old = new PgBoss({ connectionString: app.databaseUrl, supervise: false, schedule: false });
    await old.start();
    for (const name of RETIRED_QUEUES) {
      await old.createQueue(name);
      await old.send(name, { paymentId: '00000000-0000-4000-8000-000000000000' }, { startAfter: new Date(Date.now() + 3_600_000) });
    }
    const left = async () =>
      (await app.deps.prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT DISTINCT name FROM pgboss.job WHERE name = ANY($1) ORDER BY name`, [...RETIRED_QUEUES])).map((r) => r.name);
    expect(await left()).toEqual([...RETIRED_QUEUES].sort());

    const api = await JobQueue.start({ pooled: app.databaseUrl, direct: app.databaseUrl }, app.deps.log, { work: false }, jobDefinitions);
    await api.stop();
    for (const name of RETIRED_QUEUES) expect(await old.getQueue(name)).not.toBeNull();

    const worker = await JobQueue.start({ pooled: app.databaseUrl, direct: app.databaseUrl }, app.deps.log, { work: true }, jobDefinitions);
    await worker.stop();
    for (const name of RETIRED_QUEUES) expect(await old.getQueue(name)).toBeNull();
    expect(await left()).toEqual([]);
    // The queues it works are untouched.
    expect(await old.getQueue('deliver-webhook')).not.toBeNull();
    await old.stop({ graceful: false });
  });
});
