import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_API_KEYS, MAX_ACTIVE_DEVICES } from '../../src/domain/auth/credential-limits.js';
import { gql, gqlOk, makeMerchant, makeProject, request, startTestApp, type GqlResult, type TestApp } from '../support/harness.js';

const CREATE_API_KEY = `mutation($p: ID!) { createApiKey(projectId: $p) { apiKey { id } } }`;
const REVOKE_API_KEY = `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`;
const CREATE_DEVICE = `mutation { createDevice(input: { name: "Phone" }) { device { id } } }`;
const REVOKE_DEVICE = `mutation($id: ID!) { revokeDevice(id: $id) { id } }`;
const BURST = 30;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

function split(results: GqlResult[]) {
  return { created: results.filter((r) => !r.errors), refused: results.filter((r) => r.errors) };
}

describe('limits on active credentials', () => {
  it(`a burst of ${BURST} concurrent createApiKey on a project leaves it with exactly ${MAX_ACTIVE_API_KEYS} active keys; the rest are 409 limit_reached`, async () => {
    const { merchantKey, projectId } = await makeProject(app);

    const results = await Promise.all(Array.from({ length: BURST }, () => gql(app.baseUrl, CREATE_API_KEY, { p: projectId }, merchantKey)));

    // createProject issued the first key.
    const { created, refused } = split(results);
    expect(created).toHaveLength(MAX_ACTIVE_API_KEYS - 1);
    expect(refused).toHaveLength(BURST - (MAX_ACTIVE_API_KEYS - 1));
    for (const r of refused) expect(r.errors![0]!.extensions).toMatchObject({ code: 'limit_reached', details: { limit: MAX_ACTIVE_API_KEYS } });
    expect(await app.deps.prisma.apiKey.count({ where: { projectId, revokedAt: null } })).toBe(MAX_ACTIVE_API_KEYS);
  });

  it('a revoked API key makes room for one more', async () => {
    const { merchantKey, projectId } = await makeProject(app);
    const keys = [];
    for (let i = 1; i < MAX_ACTIVE_API_KEYS; i++) keys.push((await gqlOk(app.baseUrl, CREATE_API_KEY, { p: projectId }, merchantKey)).createApiKey.apiKey.id);
    expect((await gql(app.baseUrl, CREATE_API_KEY, { p: projectId }, merchantKey)).errors?.[0]?.extensions.code).toBe('limit_reached');

    await gqlOk(app.baseUrl, REVOKE_API_KEY, { id: keys[0] }, merchantKey);

    expect((await gql(app.baseUrl, CREATE_API_KEY, { p: projectId }, merchantKey)).errors).toBeUndefined();
    expect((await gql(app.baseUrl, CREATE_API_KEY, { p: projectId }, merchantKey)).errors?.[0]?.extensions.code).toBe('limit_reached');
  });

  it(`a burst of ${MAX_ACTIVE_DEVICES + 20} concurrent createDevice leaves a merchant with exactly ${MAX_ACTIVE_DEVICES} active devices; the rest are 409 limit_reached`, async () => {
    const { merchantKey } = await makeMerchant(app);

    const results = await Promise.all(Array.from({ length: MAX_ACTIVE_DEVICES + 20 }, () => gql(app.baseUrl, CREATE_DEVICE, {}, merchantKey)));

    const { created, refused } = split(results);
    expect(created).toHaveLength(MAX_ACTIVE_DEVICES);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r.errors![0]!.extensions).toMatchObject({ code: 'limit_reached', details: { limit: MAX_ACTIVE_DEVICES } });
  });

  it('a revoked device makes room for one more, and the device limit is the merchant’s, whatever its projects', async () => {
    const { merchantKey } = await makeMerchant(app);
    await makeProject(app, { merchantKey });
    await makeProject(app, { merchantKey });
    const devices = [];
    for (let i = 0; i < MAX_ACTIVE_DEVICES; i++) devices.push((await gqlOk(app.baseUrl, CREATE_DEVICE, {}, merchantKey)).createDevice.device.id);
    expect((await gql(app.baseUrl, CREATE_DEVICE, {}, merchantKey)).errors?.[0]?.extensions.code).toBe('limit_reached');

    await gqlOk(app.baseUrl, REVOKE_DEVICE, { id: devices[0] }, merchantKey);

    expect((await gql(app.baseUrl, CREATE_DEVICE, {}, merchantKey)).errors).toBeUndefined();
    expect((await gql(app.baseUrl, CREATE_DEVICE, {}, merchantKey)).errors?.[0]?.extensions.code).toBe('limit_reached');
  });

  it('limit_reached is a catalog code of the served OpenAPI document’s error envelope', async () => {
    const doc = (await request(app.baseUrl, 'GET', '/openapi.json')).body;

    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('limit_reached');
  });
});
