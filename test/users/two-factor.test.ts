import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, cookieOf, errorCode, gqlAs, gqlOkAs, newClientIp, restAs, signIn, signInWithTotp, USERS_ENV, type SignedIn } from './support.js';

// Two-factor sign-in (docs/security.md "Signing in"): TOTP set up by the user, needed at sign-in
// once on, each code and recovery code accepted once; and the owner's "require for everyone",
// under which a user without it reads and sets it up but does not decide (403 totp_required).

let app: TestApp;
let db: pg.Client;
let shop: Awaited<ReturnType<typeof makeShop>>;
let merchantId: string;
const CARD = '6037991234567893';

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  shop = await makeShop(app);
  merchantId = (await gqlOk(app.baseUrl, `{ viewer { merchant { id } } }`, {}, shop.merchantKey)).viewer.merchant.id;
});
afterAll(async () => {
  await db.end();
  await app.stop();
});

const ENABLE = `mutation { enableTotp { secret otpauthUrl } }`;
const CONFIRM = `mutation($code: String!) { confirmTotp(code: $code) { recoveryCodes } }`;
const DISABLE = `mutation($code: String!) { disableTotp(code: $code) { id totpEnabled } }`;
const ME = `{ viewer { user { totpEnabled } merchant { requireTotp } } }`;
const STEP_MS = 30_000;

/**
 * An authenticator on the test's side: the code of the earliest step the service still takes
 * (one step back, now, one ahead) that is later than the last one it used, as a phone would show
 * it a little later. One step back only while more than 5 s of it remain (the request's time).
 */
class Authenticator {
  private last = -Infinity;
  constructor(private readonly secret: string) {}

  async code(): Promise<string> {
    const totp = new TOTP({ secret: Secret.fromBase32(this.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    for (;;) {
      const now = Date.now();
      const step = Math.floor(now / STEP_MS);
      const earliest = STEP_MS - (now % STEP_MS) > 5_000 ? step - 1 : step;
      const next = Math.max(earliest, this.last + 1);
      if (next <= step + 1) {
        this.last = next;
        return totp.generate({ timestamp: next * STEP_MS });
      }
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (now % STEP_MS) + 50));
    }
  }
}

/** Enables and confirms two-factor for a signed-in user: its authenticator and recovery codes. */
async function setUpTotp(user: SignedIn): Promise<{ phone: Authenticator; recoveryCodes: string[] }> {
  const { enableTotp } = await gqlOkAs(app, user.cookie, ENABLE);
  const phone = new Authenticator(enableTotp.secret);
  const { confirmTotp } = await gqlOkAs(app, user.cookie, CONFIRM, { code: await phone.code() });
  return { phone, recoveryCodes: confirmTotp.recoveryCodes };
}

describe('setting up two-factor', () => {
  it('enableTotp gives a pending secret (a second call replaces it); confirmTotp with a current code turns it on and returns 10 recovery codes, stored hashed', async () => {
    const user = await addSignedInUser(app, merchantId, 'staff');
    const first = (await gqlOkAs(app, user.cookie, ENABLE)).enableTotp;
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(first.otpauthUrl).searchParams.get('secret')).toBe(first.secret);
    expect(new URL(first.otpauthUrl).searchParams.get('digits')).toBe('6');
    expect(new URL(first.otpauthUrl).searchParams.get('period')).toBe('30');
    expect((await gqlOkAs(app, user.cookie, ME)).viewer.user.totpEnabled).toBe(false);

    const second = (await gqlOkAs(app, user.cookie, ENABLE)).enableTotp;
    expect(second.secret).not.toBe(first.secret);
    const stale = await gqlAs(app, user.cookie, CONFIRM, { code: await new Authenticator(first.secret).code() });
    expect(errorCode(stale)).toBe('invalid_request');
    expect(stale.errors![0]!.extensions.details.fields).toEqual([{ field: 'code', message: expect.any(String) }]);

    const { confirmTotp } = await gqlOkAs(app, user.cookie, CONFIRM, { code: await new Authenticator(second.secret).code() });
    expect(confirmTotp.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmTotp.recoveryCodes).size).toBe(10);
    for (const code of confirmTotp.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await gqlOkAs(app, user.cookie, ME)).viewer.user.totpEnabled).toBe(true);
    expect(errorCode(await gqlAs(app, user.cookie, ENABLE))).toBe('invalid_state');

    // At rest: the secret sealed, the recovery codes as hashes only.
    const { rows } = await db.query(`SELECT totp_secret FROM users WHERE id = $1`, [user.userId]);
    expect(rows[0].totp_secret).toMatch(/^v1\./);
    expect(rows[0].totp_secret).not.toContain(second.secret);
    const stored = await db.query(`SELECT code_hash FROM totp_recovery_codes WHERE user_id = $1`, [user.userId]);
    expect(stored.rows).toHaveLength(10);
    const hashes = stored.rows.map((r) => r.code_hash as string).join(' ');
    for (const code of confirmTotp.recoveryCodes) expect(hashes).not.toContain(code.replace('-', ''));
  });

  it('needs a session: the merchant key is 401 on the two-factor mutations', async () => {
    expect(errorCode(await gql(app.baseUrl, ENABLE, {}, shop.merchantKey))).toBe('unauthorized');
  });
});

describe('signing in with two-factor on', () => {
  it('asks for totp only after the password, takes a code once and a recovery code once, and treats a wrong code as a wrong password', async () => {
    const user = await addSignedInUser(app, merchantId, 'viewer');
    const { phone, recoveryCodes } = await setUpTotp(user);

    const wrongPassword = await signIn(app, user.email, 'not-the-password');
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error.code).toBe('unauthorized');

    const withoutCode = await signIn(app, user.email, user.password);
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.error.code).toBe('totp_required');
    expect(withoutCode.headers.getSetCookie()).toEqual([]);

    const wrongCode = await signInWithTotp(app, user.email, user.password, '000000');
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.error).toEqual({ ...wrongPassword.body.error });
    expect((await signInWithTotp(app, user.email, user.password, 'not-a-code')).body.error).toEqual(wrongPassword.body.error);

    const code = await phone.code();
    const signedIn = await signInWithTotp(app, user.email, user.password, code);
    expect(signedIn.status).toBe(204);
    expect((await gqlOkAs(app, cookieOf(signedIn), ME)).viewer.user.totpEnabled).toBe(true);
    const replayed = await signInWithTotp(app, user.email, user.password, code);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('unauthorized');

    // A recovery code, typed in capitals without its dash, works once.
    const recovery = recoveryCodes[0]!;
    expect((await signInWithTotp(app, user.email, user.password, recovery.replace('-', '').toUpperCase())).status).toBe(204);
    expect((await signInWithTotp(app, user.email, user.password, recovery)).status).toBe(401);
  });

  it('counts wrong codes as failed sign-ins: the 11th attempt from that address is 429, even with a right code', async () => {
    const user = await addSignedInUser(app, merchantId, 'viewer');
    const { phone } = await setUpTotp(user);
    const ip = newClientIp();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => signInWithTotp(app, user.email, user.password, String(100000 + i), ip)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    expect((await signInWithTotp(app, user.email, user.password, await phone.code(), ip)).status).toBe(429);
  });

  it('turns off with disableTotp and a code or a recovery code (a wrong one is 400), audited; then the password alone signs in', async () => {
    const user = await addSignedInUser(app, merchantId, 'staff');
    const { recoveryCodes } = await setUpTotp(user);
    const wrong = await gqlAs(app, user.cookie, DISABLE, { code: 'aaaaa-aaaaa' });
    expect(errorCode(wrong)).toBe('invalid_request');
    expect((await gqlOkAs(app, user.cookie, DISABLE, { code: recoveryCodes[3] })).disableTotp).toEqual({ id: user.userId, totpEnabled: false });
    expect(errorCode(await gqlAs(app, user.cookie, DISABLE, { code: recoveryCodes[4] }))).toBe('invalid_state');
    expect((await signIn(app, user.email, user.password)).status).toBe(204);

    const events = await gqlOk(app.baseUrl, `query($s: ID!) { auditEvents(subjectId: $s, first: 20) { edges { node { action actor { id } changes } } } }`, { s: user.userId }, shop.merchantKey);
    const actions = events.auditEvents.edges.map((e: { node: { action: string } }) => e.node.action);
    expect(actions).toEqual(expect.arrayContaining(['user.totp_setup_started', 'user.totp_enabled', 'user.totp_disabled']));
    const disabled = events.auditEvents.edges.find((e: { node: { action: string } }) => e.node.action === 'user.totp_disabled').node;
    expect(disabled).toEqual({ action: 'user.totp_disabled', actor: { id: user.userId }, changes: { totpEnabled: { from: true, to: false } } });
  });
});

describe('a merchant that requires two-factor', () => {
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
  async function unmatchedMessage(): Promise<string> {
    const id = await pendingPayment(130_000);
    const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: id, outcome: 'wrong_amount' } });
    expect(sim.body.bankMessage.status).toBe('unmatched');
    return sim.body.bankMessage.id;
  }
  const MONEY_DECISIONS = {
    attachBankMessage: {
      query: `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: true, note: "same payer") { status } }`,
      variables: async () => ({ m: await unmatchedMessage(), p: await pendingPayment() }),
    },
    confirmPaymentManually: {
      query: `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank") { status } }`,
      variables: async () => ({ id: await pendingPayment() }),
    },
    recordRefund: {
      query: `mutation($id: ID!) { recordRefund(paymentId: $id, input: { amount: 10000, destinationCard: "${CARD}" }) { amount } }`,
      variables: async () => ({ id: await confirmedPayment() }),
    },
    refundBankMessage: {
      query: `mutation($id: ID!) { refundBankMessage(messageId: $id, input: { destinationCard: "${CARD}" }) { bankMessageId } }`,
      variables: async () => ({ id: await unmatchedMessage() }),
    },
  } as const;
  const REQUIRE = `mutation($on: Boolean!) { updateMerchant(input: { requireTotp: $on }) { requireTotp } }`;

  it('is set by an owner who has two-factor on (or the merchant key), audited; staff may not', async () => {
    const owner = await addSignedInUser(app, merchantId, 'owner');
    const staff = await addSignedInUser(app, merchantId, 'staff');
    expect(errorCode(await gqlAs(app, staff.cookie, REQUIRE, { on: true }))).toBe('forbidden');
    const bare = await gqlAs(app, owner.cookie, REQUIRE, { on: true });
    expect(errorCode(bare)).toBe('invalid_state');
    expect(bare.errors![0]!.extensions.details).toEqual({ reason: 'totp_not_enabled' });
    await setUpTotp(owner);
    expect((await gqlOkAs(app, owner.cookie, REQUIRE, { on: true })).updateMerchant).toEqual({ requireTotp: true });
    expect((await gqlOk(app.baseUrl, REQUIRE, { on: false }, shop.merchantKey)).updateMerchant).toEqual({ requireTotp: false });
    const events = await gqlOk(app.baseUrl, `query($s: ID!) { auditEvents(subjectId: $s, first: 5) { edges { node { action actor { kind id } changes } } } }`, { s: merchantId }, shop.merchantKey);
    expect(events.auditEvents.edges.map((e: { node: unknown }) => e.node).slice(0, 2)).toEqual([
      { action: 'merchant.updated', actor: { kind: 'merchant_key', id: expect.any(String) }, changes: { requireTotp: { from: true, to: false } } },
      { action: 'merchant.updated', actor: { kind: 'user', id: owner.userId }, changes: { requireTotp: { from: false, to: true } } },
    ]);
  });

  it('refuses money decisions to a user without two-factor with 403 totp_required (GraphQL and REST); the user reads and sets it up, then decides', async () => {
    const staff = await addSignedInUser(app, merchantId, 'staff');
    const owner = await addSignedInUser(app, merchantId, 'owner');
    expect((await gqlOk(app.baseUrl, REQUIRE, { on: true }, shop.merchantKey)).updateMerchant.requireTotp).toBe(true);
    try {
      // Signed in before and after the switch alike: the rule follows the session at once.
      const fresh = await signIn(app, staff.email, staff.password);
      expect(fresh.status).toBe(204);
      for (const [name, op] of Object.entries(MONEY_DECISIONS)) {
        const res = await gqlAs(app, staff.cookie, op.query, await op.variables());
        expect(errorCode(res), name).toBe('totp_required');
        expect(res.data, name).toBeNull();
      }
      const refund = await restAs(app, cookieOf(fresh), 'POST', `/v1/payments/${await confirmedPayment()}/refunds`, { body: { amount: '10000', destinationCard: CARD }, csrf: true });
      expect(refund.status).toBe(403);
      expect(refund.body.error.code).toBe('totp_required');
      // An owner without it does not manage either.
      expect(errorCode(await gqlAs(app, owner.cookie, `mutation { createDevice(input: { name: "Phone" }) { token } }`))).toBe('totp_required');

      const read = await gqlOkAs(app, staff.cookie, `{ viewer { user { totpEnabled } merchant { requireTotp } } payments(first: 3) { edges { node { id } } } }`);
      expect(read.viewer).toEqual({ user: { totpEnabled: false }, merchant: { requireTotp: true } });
      expect(read.payments.edges.length).toBeGreaterThan(0);

      await setUpTotp(staff);
      for (const [name, op] of Object.entries(MONEY_DECISIONS)) {
        const res = await gqlAs(app, staff.cookie, op.query, await op.variables());
        expect(res.errors, name).toBeUndefined();
      }
    } finally {
      await gqlOk(app.baseUrl, REQUIRE, { on: false }, shop.merchantKey);
    }
  });
});
