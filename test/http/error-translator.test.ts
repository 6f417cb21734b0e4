import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryOnConflict } from '../../src/db/errors.js';
import { giveUpOnMessage, GIVE_UP_AFTER_MS } from '../../src/domain/bank-messages/give-up.js';
import { toAppError } from '../../src/error-translator.js';
import { AppError } from '../../src/errors.js';
import { makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const raise = (sqlstate: string) => app.deps.prisma.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '${sqlstate}', MESSAGE = 'secret detail'; END $$`);
const caught = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (err) {
    return toAppError(err);
  }
  throw new Error('expected a throw');
};

describe('toAppError: one translator from anything thrown to the catalog', () => {
  it.each([
    ['NUL in text (22021)', () => app.deps.prisma.$queryRaw`SELECT ${'a\u0000b'}::text`, 'invalid_request'],
    ['numeric out of range (22003)', () => app.deps.prisma.$queryRaw`SELECT ${'99999999999999999999999'}::bigint`, 'invalid_request'],
    ['datetime out of range (22008)', () => app.deps.prisma.$queryRaw`SELECT ${new Date('0000-01-01T00:00:00Z')}::timestamptz`, 'invalid_request'],
    ['a malformed uuid (22P02)', () => app.deps.prisma.payment.findMany({ where: { id: 'zz' } }), 'invalid_request'],
    ['a BIGINT overflow through the ORM', () => app.deps.prisma.payment.findMany({ where: { amountFinal: 10n ** 22n } }), 'invalid_request'],
    ['a check violation (23514)', () => raise('23514'), 'invalid_request'],
    ['a foreign key violation (23503)', () => raise('23503'), 'invalid_request'],
    ['a unique violation (23505)', () => raise('23505'), 'conflict'],
    ['a deadlock after retries (40P01)', () => retryOnConflict(() => raise('40P01'), 3), 'conflict'],
    ['a serialization failure after retries (40001)', () => retryOnConflict(() => raise('40001'), 3), 'conflict'],
    ['a statement timeout (57014)', () => raise('57014'), 'unavailable'],
    ['a lock timeout (55P03)', () => raise('55P03'), 'unavailable'],
    [
      'a transaction past its timeout (P2028)',
      () => app.deps.prisma.$transaction(async (tx) => tx.$executeRaw`SELECT pg_sleep(0.3)`.then(() => tx.$executeRaw`SELECT 1`), { timeout: 100 }),
      'unavailable',
    ],
  ] as const)('maps %s', async (_name, run, code) => {
    const err = await caught(run);
    expect(err.code).toBe(code);
    expect(err.message).not.toContain('secret detail');
    expect(JSON.stringify(err.details)).not.toContain('secret detail');
  });

  it('maps body-parser and HTTP errors, and keeps AppErrors', () => {
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.parse.failed', status: 400 })).code).toBe('invalid_json');
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.too.large', status: 413 })).code).toBe('payload_too_large');
    expect(toAppError(Object.assign(new Error('x'), { status: 400, expose: true })).code).toBe('invalid_request');
    const own = new AppError('slug_taken');
    expect(toAppError(own)).toBe(own);
  });

  it('leaves only bugs as internal_error, with nothing of them in the answer', () => {
    const err = toAppError(new TypeError('cannot read x of undefined at /work/main/src/secret.ts'));
    expect(err.code).toBe('internal_error');
    expect(err.message).not.toContain('secret');
  });
});

describe('the rescue job gives up on a message that keeps failing', () => {
  it('leaves a young message to its retries and marks an old one unparsed with the reason', async () => {
    const shop = await makeShop(app, { sandbox: false });
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: { sender: 'x', body: 'stuck', receivedAt: new Date().toISOString() } });
    const id: string = res.body.id;
    await app.deps.prisma.bankMessage.update({ where: { id }, data: { status: 'received', statusReason: null } });
    const failure = Object.assign(new Error('boom'), { code: 'P2010' });
    const created = (await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id } })).createdAt;

    expect(await giveUpOnMessage(app.deps, id, failure, new Date(created.getTime() + 60_000))).toBe(false);
    expect((await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id } })).status).toBe('received');

    expect(await giveUpOnMessage(app.deps, id, failure, new Date(created.getTime() + GIVE_UP_AFTER_MS + 1))).toBe(true);
    const row = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('unparsed');
    expect(row.statusReason).toMatch(/failed after repeated attempts \(P2010\)/);
  });
});
