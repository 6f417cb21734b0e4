import { randomInt } from 'node:crypto';
import { createPaymentRest, gqlOk, makeShop, request, type TestApp } from '../support/harness.js';

/** A known Mellat sender (src/domain/sms/banks/mellat.ts), so evidence checks let a deposit confirm. */
export const MELLAT_SENDER = '+98700701';

/** A live shop whose phone has a hook URL; its own account, so no other test's balances chain into it. */
export async function liveShopWithHook(app: TestApp) {
  const account = String(randomInt(1_000_000_000, 9_999_999_999));
  const shop = await makeShop(app, { sandbox: false, credit: 10_000_000, card: { accountNumber: account } });
  const hook = await gqlOk(app.baseUrl, `mutation($id: ID!) { issueDeviceHook(id: $id) { hookSecret hookUrl } }`, { id: shop.deviceId }, shop.merchantKey);
  return { ...shop, account, deviceToken: shop.deviceToken!, deviceId: shop.deviceId!, hookSecret: hook.issueDeviceHook.hookSecret as string };
}

export async function newPayment(app: TestApp, apiKey: string, amount = 250_000): Promise<{ id: string; amountFinal: string }> {
  return (await createPaymentRest(app, apiKey, { amount })).body;
}

export async function paymentOf(app: TestApp, apiKey: string, id: string) {
  return (await request(app.baseUrl, 'GET', `/v1/payments/${id}`, { token: apiKey })).body;
}

/** Posts a raw body (JSON text or form) the way an app would, with the headers it sends. */
export async function postRaw(app: TestApp, path: string, body: string, headers: Record<string, string>) {
  return request(app.baseUrl, 'POST', path, { rawBody: body, headers });
}
