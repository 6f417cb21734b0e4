import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlOk, makeMerchant, makeProject, startTestApp, type TestApp } from '../support/harness.js';

// The dashboard's event checkboxes: the endpoint's events change, its URL and secret stay.
describe('setWebhookEndpointEvents', () => {
  let app: TestApp;
  let db: pg.Client;
  beforeAll(async () => {
    app = await startTestApp({ role: 'api' });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const EVENTS = `mutation($p: ID!, $e: [String!]!) { setWebhookEndpointEvents(projectId: $p, events: $e) { url events } }`;

  it('changes the events only (same secret), audited; no endpoint → not_found; a bad event → invalid_request naming events', async () => {
    const { merchantKey } = await makeMerchant(app);
    const { projectId } = await makeProject(app, { merchantKey, sandbox: true });
    const none = await gql(app.baseUrl, EVENTS, { p: projectId, e: ['payment.confirmed'] }, merchantKey);
    expect(none.errors?.[0]?.extensions.code).toBe('not_found');

    await gqlOk(app.baseUrl, `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "https://shop.example.com/hook") { secret } }`, { p: projectId }, merchantKey);
    const secret = async () => (await db.query('SELECT secret_ciphertext FROM webhook_endpoints WHERE project_id = $1', [projectId])).rows[0].secret_ciphertext;
    const before = await secret();
    const changed = await gqlOk(app.baseUrl, EVENTS, { p: projectId, e: ['payment.confirmed', 'device.offline', 'payment.confirmed'] }, merchantKey);
    expect(changed.setWebhookEndpointEvents).toEqual({ url: 'https://shop.example.com/hook', events: ['payment.confirmed', 'device.offline'] });
    expect(await secret()).toBe(before);
    const audit = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'webhook_endpoint.updated' AND project_id = $1`, [projectId]);
    expect(audit.rows[0].n).toBe(1);

    const bad = await gql(app.baseUrl, EVENTS, { p: projectId, e: ['payment.nope'] }, merchantKey);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request' });
    expect(JSON.stringify(bad.errors?.[0]?.extensions.details)).toContain('events');
  });
});
