import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, errorCode, gqlAs, gqlOkAs, restAs, setPassword, signIn, tokenOfUrl, USERS_ENV, type SignedIn } from './support.js';

// Roles (docs/dashboard.md "Users and roles"), enforced in the domain: owner = the merchant
// key's powers plus users; staff = read, decide exceptions, export; viewer = read and export.
// Every refusal of a role is 403 forbidden, through GraphQL and REST alike, and changes nothing.

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;
const users = {} as Record<'owner' | 'staff' | 'viewer', SignedIn>;
const ROLES = ['owner', 'staff', 'viewer'] as const;
const CARD = '6037991234567893';

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  shop = await makeShop(app);
  for (const role of ROLES) users[role] = await addSignedInUser(app, shop.merchantId || (await merchantIdOf(shop.merchantKey)), role);
});
afterAll(() => app.stop());

async function merchantIdOf(merchantKey: string): Promise<string> {
  return (await gqlOk(app.baseUrl, `{ viewer { merchant { id } } }`, {}, merchantKey)).viewer.merchant.id;
}

async function pendingPayment(amount = 120_000): Promise<string> {
  const res = await createPaymentRest(app, shop.apiKey, { amount });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function confirmedPayment(): Promise<string> {
  const id = await pendingPayment();
  const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: id } });
  expect(sim.body.payment.status).toBe('confirmed');
  return id;
}

/** A simulated deposit that matched nothing: a message waiting for the merchant's decision. */
async function unmatchedMessage(): Promise<string> {
  const id = await pendingPayment(130_000);
  const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: id, outcome: 'wrong_amount' } });
  expect(sim.body.bankMessage.status).toBe('unmatched');
  return sim.body.bankMessage.id;
}

const DECISIONS = {
  rejectPayment: {
    query: `mutation($id: ID!) { rejectPayment(id: $id, reason: "out of stock") { status } }`,
    variables: async () => ({ id: await pendingPayment() }),
    done: { rejectPayment: { status: 'rejected' } },
  },
  confirmPaymentManually: {
    query: `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank") { status confirmationSource } }`,
    variables: async () => ({ id: await pendingPayment() }),
    done: { confirmPaymentManually: { status: 'confirmed', confirmationSource: 'manual' } },
  },
  attachBankMessage: {
    query: `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: true, note: "same payer") { status } }`,
    variables: async () => ({ m: await unmatchedMessage(), p: await pendingPayment() }),
    done: { attachBankMessage: { status: 'confirmed' } },
  },
  dismissBankMessage: {
    query: `mutation($id: ID!) { dismissBankMessage(id: $id, note: "not ours") { status } }`,
    variables: async () => ({ id: await unmatchedMessage() }),
    done: { dismissBankMessage: { status: 'dismissed' } },
  },
  recordRefund: {
    query: `mutation($id: ID!) { recordRefund(paymentId: $id, input: { amount: 10000, destinationCard: "${CARD}" }) { amount } }`,
    variables: async () => ({ id: await confirmedPayment() }),
    done: { recordRefund: { amount: '10000' } },
  },
  refundBankMessage: {
    query: `mutation($id: ID!) { refundBankMessage(messageId: $id, input: { destinationCard: "${CARD}" }) { bankMessageId } }`,
    variables: async () => ({ id: await unmatchedMessage() }),
    done: (vars: Record<string, unknown>) => ({ refundBankMessage: { bankMessageId: vars.id } }),
  },
} as const;

describe('decisions on exceptions (GraphQL)', () => {
  for (const [name, op] of Object.entries(DECISIONS)) {
    it(`${name}: owner and staff decide; a viewer is refused with 403 forbidden and nothing changes`, async () => {
      for (const role of ROLES) {
        const vars = await op.variables();
        const res = await gqlAs(app, users[role].cookie, op.query, vars);
        if (role === 'viewer') {
          expect(errorCode(res), role).toBe('forbidden');
          expect(res.data).toBeNull();
          // The same decision is still open: the merchant key takes it.
          const after = await gql(app.baseUrl, op.query, vars, shop.merchantKey);
          expect(after.errors, role).toBeUndefined();
        } else {
          expect(res.errors, role).toBeUndefined();
          expect(res.data).toEqual(typeof op.done === 'function' ? op.done(vars) : op.done);
        }
      }
    });
  }

  it('a viewer is refused before anything is looked up: an unknown id is forbidden too, not not_found', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(errorCode(await gqlAs(app, users.viewer.cookie, DECISIONS.rejectPayment.query, { id: unknown }))).toBe('forbidden');
    expect(errorCode(await gqlAs(app, users.staff.cookie, DECISIONS.rejectPayment.query, { id: unknown }))).toBe('not_found');
  });
});

describe('decisions and reads over REST', () => {
  it('records a refund for owner and staff (201); a viewer gets 403 forbidden but reads the refunds', async () => {
    for (const role of ROLES) {
      const id = await confirmedPayment();
      const res = await restAs(app, users[role].cookie, 'POST', `/v1/payments/${id}/refunds`, { body: { amount: '10000', destinationCard: CARD }, csrf: true });
      if (role === 'viewer') {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      } else expect(res.status).toBe(201);
      const list = await restAs(app, users[role].cookie, 'GET', `/v1/payments/${id}/refunds`);
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(role === 'viewer' ? 0 : 1);
    }
  });

  it('keeps project-key routes to project keys: a session on them is 401', async () => {
    const id = await pendingPayment();
    const res = await restAs(app, users.owner.cookie, 'POST', `/v1/payments/${id}/reject`, { body: { reason: 'no' }, csrf: true });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('management (what the merchant key does)', () => {
  const MANAGEMENT = {
    createApiKey: { query: `mutation($p: ID!) { createApiKey(projectId: $p) { key } }`, variables: () => ({ p: shop.projectId }) },
    createCard: {
      query: `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
      variables: () => ({ input: { projectId: shop.projectId, bankCode: 'melli', cardNumber: CARD, holderName: 'Shop' } }),
    },
    setWebhookEndpoint: { query: `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "https://hooks.example.com/in") { secret } }`, variables: () => ({ p: shop.projectId }) },
    createProject: { query: `mutation { createProject(input: { name: "Second", sandbox: true }) { apiKey } }`, variables: () => ({}) },
    createDevice: { query: `mutation { createDevice(input: { name: "Phone" }) { token } }`, variables: () => ({}) },
  } as const;

  for (const [name, op] of Object.entries(MANAGEMENT)) {
    it(`${name}: an owner may; staff and viewers get 403 forbidden`, async () => {
      for (const role of ROLES) {
        const res = await gqlAs(app, users[role].cookie, op.query, op.variables());
        if (role === 'owner') expect(res.errors, role).toBeUndefined();
        else expect(errorCode(res), role).toBe('forbidden');
      }
    });
  }

  it('every role reads the merchant: projects, credit, payments, bank messages, the webhook endpoint, users and the audit log', async () => {
    await pendingPayment();
    for (const role of ROLES) {
      const data = await gqlOkAs(
        app,
        users[role].cookie,
        `query($p: ID!) {
          viewer { merchant { projects { id } credit { available } } }
          payments(first: 5) { edges { node { id } } }
          bankMessages(first: 5) { edges { node { id } } }
          webhookEndpoint(projectId: $p) { url }
          users { email role }
          auditEvents(first: 5) { edges { node { action } } }
        }`,
        { p: shop.projectId },
      );
      expect(data.viewer.merchant.projects.map((p: { id: string }) => p.id)).toContain(shop.projectId);
      expect(data.payments.edges.length).toBeGreaterThan(0);
      expect(data.users.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining([users.owner.email, users.staff.email, users.viewer.email]));
      expect(data.auditEvents.edges.length).toBeGreaterThan(0);
    }
  });
});

describe('users', () => {
  it('lets an owner invite (link shown once, working once); staff, viewers and the merchant key may not', async () => {
    const invite = `mutation($email: String!, $role: UserRole!) { inviteUser(email: $email, role: $role) { setPasswordUrl user { id email role passwordSet } } }`;
    expect(errorCode(await gqlAs(app, users.staff.cookie, invite, { email: 'x1@shop.example.com', role: 'viewer' }))).toBe('forbidden');
    expect(errorCode(await gqlAs(app, users.viewer.cookie, invite, { email: 'x2@shop.example.com', role: 'viewer' }))).toBe('forbidden');
    expect(errorCode(await gql(app.baseUrl, invite, { email: 'x3@shop.example.com', role: 'viewer' }, shop.merchantKey))).toBe('unauthorized');

    const data = await gqlOkAs(app, users.owner.cookie, invite, { email: ' New.Person@Shop.Example.com ', role: 'staff' });
    expect(data.inviteUser.user).toMatchObject({ email: 'new.person@shop.example.com', role: 'staff', passwordSet: false });
    expect(data.inviteUser.setPasswordUrl).toMatch(/\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect((await setPassword(app, tokenOfUrl(data.inviteUser.setPasswordUrl), 'welcome-aboard-123')).status).toBe(204);
    expect((await signIn(app, 'new.person@shop.example.com', 'welcome-aboard-123')).status).toBe(204);

    const again = await gqlAs(app, users.owner.cookie, invite, { email: 'new.person@shop.example.com', role: 'viewer' });
    expect(errorCode(again)).toBe('conflict');
    expect(errorCode(await gqlAs(app, users.owner.cookie, invite, { email: 'not-an-email', role: 'viewer' }))).toBe('invalid_request');
  });

  it('applies a role change at once, and keeps the last owner: no demotion, no removal', async () => {
    const helper = await addSignedInUser(app, shop.merchantId || (await merchantIdOf(shop.merchantKey)), 'staff');
    const update = `mutation($id: ID!, $role: UserRole!) { updateUser(id: $id, input: { role: $role }) { role } }`;
    expect(errorCode(await gqlAs(app, users.staff.cookie, update, { id: helper.userId, role: 'owner' }))).toBe('forbidden');
    expect((await gqlOkAs(app, users.owner.cookie, update, { id: helper.userId, role: 'viewer' })).updateUser.role).toBe('viewer');
    const vars = await DECISIONS.rejectPayment.variables();
    expect(errorCode(await gqlAs(app, helper.cookie, DECISIONS.rejectPayment.query, vars))).toBe('forbidden');

    const lastOwner = await gqlAs(app, users.owner.cookie, update, { id: users.owner.userId, role: 'staff' });
    expect(errorCode(lastOwner)).toBe('invalid_state');
    const remove = `mutation($id: ID!) { removeUser(id: $id) { id email } }`;
    expect(errorCode(await gqlAs(app, users.owner.cookie, remove, { id: users.owner.userId }))).toBe('invalid_state');

    // Removal ends the user's sessions at once.
    expect((await gqlOkAs(app, users.owner.cookie, remove, { id: helper.userId })).removeUser).toEqual({ id: helper.userId, email: helper.email });
    expect(errorCode(await gqlAs(app, helper.cookie, `{ viewer { kind } }`))).toBe('unauthorized');
    expect(errorCode(await gqlAs(app, users.owner.cookie, remove, { id: helper.userId }))).toBe('not_found');
  });

  it('keeps users of another merchant out of sight: their ids are not found', async () => {
    const other = await makeShop(app);
    const stranger = await addSignedInUser(app, await merchantIdOf(other.merchantKey), 'owner');
    const update = `mutation($id: ID!) { updateUser(id: $id, input: { role: viewer }) { role } }`;
    expect(errorCode(await gqlAs(app, stranger.cookie, update, { id: users.staff.userId }))).toBe('not_found');
    const theirs = await gqlOkAs(app, stranger.cookie, `{ users { email } payments(first: 5) { edges { node { id } } } }`);
    expect(theirs.users).toEqual([{ email: stranger.email }]);
    expect(theirs.payments.edges).toEqual([]);
  });
});

describe('the audit log names the user', () => {
  it('records decisions and user changes with actor {kind: user, id, label: email}', async () => {
    const vars = await DECISIONS.rejectPayment.variables();
    await gqlOkAs(app, users.staff.cookie, DECISIONS.rejectPayment.query, vars);
    const events = await gqlOkAs(app, users.viewer.cookie, `query($s: ID!) { auditEvents(subjectId: $s, first: 5) { edges { node { action actor { kind id label } } } } }`, { s: vars.id });
    expect(events.auditEvents.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
      action: 'payment.rejected',
      actor: { kind: 'user', id: users.staff.userId, label: users.staff.email },
    });

    const invited = await gqlOkAs(app, users.owner.cookie, `mutation { inviteUser(email: "audited@shop.example.com", role: viewer) { user { id } } }`);
    const userEvents = await gqlOk(app.baseUrl, `query($s: ID!) { auditEvents(subjectId: $s, first: 5) { edges { node { action actor { kind label } changes } } } }`, { s: invited.inviteUser.user.id }, shop.merchantKey);
    expect(userEvents.auditEvents.edges[0].node).toEqual({
      action: 'user.created',
      actor: { kind: 'user', label: users.owner.email },
      changes: { email: { from: null, to: 'audited@shop.example.com' }, role: { from: null, to: 'viewer' } },
    });
    const signIns = await gqlOk(app.baseUrl, `query($s: ID!) { auditEvents(subjectId: $s, first: 20) { edges { node { action } } } }`, { s: users.viewer.userId }, shop.merchantKey);
    expect(signIns.auditEvents.edges.map((e: { node: { action: string } }) => e.node.action)).toEqual(expect.arrayContaining(['user.created', 'user.password_set', 'user.signed_in']));
  });
});
