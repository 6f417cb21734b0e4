import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { setMerchantActive } from '../../src/domain/merchants/merchants.js';
import { gqlOk, makeMerchant, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let deviceToken: string;
let merchantKey: string;
let merchantId: string;

function expectEnvelope(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.details).toEqual(res.body.details);
}

beforeAll(async () => {
  app = await startTestApp();
  ({ merchantKey, merchantId } = await makeMerchant(app));
  const data = await gqlOk(app.baseUrl, 'mutation { createDevice(input: { name: "Phone" }) { token } }', {}, merchantKey);
  deviceToken = data.createDevice.token;
});
afterAll(() => app.stop());

describe('REST error envelopes', () => {
  it('answers 204 to a device heartbeat with a valid device token and records it', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken });
    expect(res.status).toBe(204);
    const device = await app.deps.prisma.device.findFirstOrThrow({ where: { merchantId } });
    expect(device.lastHeartbeatAt).not.toBeNull();
  });

  it.each([
    ['no credential', undefined],
    ['an unknown credential', 'dt_ThisTokenDoesNotExistAnywhere000000000000'],
    ['a malformed credential', 'not a key'],
    ['a credential of the wrong kind', 'merchant'],
  ])('answers 401 unauthorized for %s', async (_name, token) => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: token === 'merchant' ? merchantKey : token });
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('answers 401 for a revoked device token', async () => {
    const data = await gqlOk(app.baseUrl, 'mutation { createDevice(input: { name: "Old" }) { token device { id } } }', {}, merchantKey);
    await gqlOk(app.baseUrl, 'mutation($id: ID!) { revokeDevice(id: $id) { revoked } }', { id: data.createDevice.device.id }, merchantKey);
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: data.createDevice.token });
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('answers 413 payload_too_large for a body over 64 KiB, after auth', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(70 * 1024) });
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken, rawBody: big, headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 413, 'payload_too_large');
    const unauth = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expectEnvelope(unauth, 401, 'unauthorized');
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const body = JSON.stringify({ pad: '' });
    const exact = JSON.stringify({ pad: 'x'.repeat(64 * 1024 - body.length) });
    expect(Buffer.byteLength(exact)).toBe(64 * 1024);
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken, rawBody: exact, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(204);
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken, rawBody: '{"broken":', headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 400, 'invalid_json');
  });

  it('answers 404 not_found for unknown routes, with or without credentials', async () => {
    expectEnvelope(await request(app.baseUrl, 'GET', '/v1/nothing-here'), 404, 'not_found');
    expectEnvelope(await request(app.baseUrl, 'POST', '/nope', { token: deviceToken, body: {} }), 404, 'not_found');
    expectEnvelope(await request(app.baseUrl, 'GET', '/v1/nothing-here', { token: 'junk' }), 404, 'not_found');
  });

  it('answers 403 merchant_inactive once the operator deactivates the merchant', async () => {
    const other = await makeMerchant(app, { name: 'Soon inactive' });
    const dev = await gqlOk(app.baseUrl, 'mutation { createDevice(input: { name: "P" }) { token } }', {}, other.merchantKey);
    await setMerchantActive(app.deps, operatorActor, other.merchantId, false);
    expectEnvelope(await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: dev.createDevice.token }), 403, 'merchant_inactive');
  });

  it('answers a malformed URL with an envelope, not a 500', async () => {
    for (const path of ['/v1/payments/%E0%A4%A', '/v1/checkout/%ZZ']) {
      const res = await request(app.baseUrl, 'GET', path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body.error.code).toMatch(/^(invalid_request|not_found)$/);
    }
    const gqlBad = await request(app.baseUrl, 'POST', '/graphql', { rawBody: '{bad', headers: { 'content-type': 'application/json' } });
    expect(gqlBad.status).toBe(400);
    expect(gqlBad.body.errors[0].extensions.code).toBe('invalid_json');
    expect(JSON.stringify(gqlBad.body)).not.toContain('originalError');
  });

  it('serves /healthz and /readyz', async () => {
    expect((await request(app.baseUrl, 'GET', '/healthz')).status).toBe(200);
    const ready = await request(app.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', migrations: 'applied' });
  });

  it('echoes a request id', async () => {
    const res = await request(app.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    const generated = await request(app.baseUrl, 'GET', '/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
