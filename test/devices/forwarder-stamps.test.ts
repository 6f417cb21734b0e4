import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type HttpResult, type TestApp } from '../support/harness.js';
import { liveShopWithHook, MELLAT_SENDER, postRaw } from './shop.js';

// Issue 17 item 6a: a forwarder app's epoch stamp beyond what a date can hold (8.64e15 ms and up,
// 1e300) made `toISOString` throw, and the device routes answered 500. A stamp that is a number but
// no instant is the app's broken field: 400 invalid_request naming it, on the token route and on
// the hook URL alike.

let app: TestApp;
let shop: Awaited<ReturnType<typeof liveShopWithHook>>;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  shop = await liveShopWithHook(app);
});
afterAll(() => app.stop());

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** The two doors a forwarder posts one SMS to. */
const routes = {
  token: (body: string, type: Record<string, string>) => postRaw(app, '/v1/device/messages', body, { ...type, authorization: `Bearer ${shop.deviceToken}` }),
  hook: (body: string, type: Record<string, string>) => postRaw(app, `/v1/device/hooks/${shop.hookSecret}`, body, type),
};

// JSON literals, as an app would put them in its body: past Date's range, absurd, negative, not a
// number at all, and in Date's range but past the year 9999 no RFC 3339 date-time can name.
const BAD_STAMPS = ['8640000000000001', '1e300', '-1e300', '-1', '1e400', '1000000000000000', '"8640000000000001"', '"1e300"', '"NaN"', '"-Infinity"'];

const GOOD_MS = String(Date.now() - 30_000);

/** Each app's body with `field` set to the literal `stamp` and every other stamp valid. */
const bodies: Record<string, (stamp: string) => string> = {
  receivedStamp: (stamp) => `{"from":"${MELLAT_SENDER}","text":"hello","sentStamp":${GOOD_MS},"receivedStamp":${stamp},"sim":"sim1"}`,
  sentStamp: (stamp) => `{"from":"${MELLAT_SENDER}","text":"hello","sentStamp":${stamp},"receivedStamp":${GOOD_MS},"sim":"sim1"}`,
  timestamp: (stamp) => `{"from":"${MELLAT_SENDER}","content":"hello","timestamp":${stamp}}`,
};

function expectNamed(res: HttpResult, field: string, what: string) {
  expect(res.status, what).toBe(400);
  expect(res.body.error.code, what).toBe('invalid_request');
  expect(res.body.error.details.fields, what).toEqual([{ field, message: expect.stringMatching(/epoch/) }]);
}

describe('forwarder stamps that are no instant', () => {
  for (const [route, post] of Object.entries(routes)) {
    for (const [field, body] of Object.entries(bodies)) {
      it(`answers 400 naming ${field} on the ${route} route`, async () => {
        // Given an app body whose ${field} is a number no date can hold
        for (const stamp of BAD_STAMPS) {
          // When the app posts it
          const res = await post(body(stamp), JSON_TYPE);
          // Then the field is named, never a 500
          expectNamed(res, field, `${field}=${stamp}`);
        }
      });
    }

    it(`answers 400 naming timestamp in SmsForwarder's default form body on the ${route} route`, async () => {
      for (const stamp of ['8640000000000001', '1e300', '-1e300', 'NaN']) {
        const form = new URLSearchParams({ from: MELLAT_SENDER, content: 'hello', timestamp: stamp }).toString();
        expectNamed(await post(form, FORM_TYPE), 'timestamp', `timestamp=${stamp}`);
      }
    });
  }

  it('still takes stamps in range, and ignores a stamp below the epoch floor (a phone clock never set)', async () => {
    for (const stamp of [GOOD_MS, `"${GOOD_MS}"`, String(Math.floor(Number(GOOD_MS) / 1000)), '0', '"253402300799999"']) {
      const res = await routes.hook(bodies.receivedStamp!(stamp), JSON_TYPE);
      expect(res.status, stamp).toBe(202);
    }
  });

  it('answers no other odd forwarder body with a 5xx', async () => {
    const odd = [
      `{"from":"${MELLAT_SENDER}","text":"hello","sim":{"a":[1,{"b":null}]}}`,
      `{"from":["a","b"],"text":"hello"}`,
      `{"from":"${MELLAT_SENDER}","content":"hello","receive_time":"9999-12-31 23:59:59-23:59"}`,
      `{"from":"${MELLAT_SENDER}","content":"hello","receive_time":"0000-01-01T00:00:00+00:00"}`,
      `{"from":"${MELLAT_SENDER}","org_content":"hello","receive_time":"99999999999999"}`,
      // Long enough that a backtracking number pattern would take seconds.
      `{"from":"${MELLAT_SENDER}","content":"hello","timestamp":"${'1'.repeat(60_000)}x"}`,
      `{"event":"sms:received","payload":null}`,
      `{"event":5,"payload":{}}`,
      `{"event":"sms:batch:received","payload":{"messages":"x"}}`,
      `{"event":"sms:batch:received","payload":{"messages":[{"message":"m","phoneNumber":"p","receivedAt":"9999-12-31T23:59:59.999-23:59"}]}}`,
      `{"event":"sms:received","payload":{"message":"m","phoneNumber":"p","receivedAt":"2026-13-45T99:99:00+03:30"}}`,
      `{"event":"sms:received","payload":{"message":"m","phoneNumber":"p","receivedAt":"1e300"}}`,
      `{"__proto__":{"from":"a"},"from":"${MELLAT_SENDER}","text":"hello"}`,
      'null',
      '[]',
      '"text"',
      '1e400',
    ];
    for (const body of odd) {
      for (const post of Object.values(routes)) {
        const res = await post(body, JSON_TYPE);
        expect(res.status, body).toBeLessThan(500);
      }
    }
  });
});
