/**
 * One autocannon run of `POST /v1/device/messages` (bench/hot-paths/load.ts's shape: a process of
 * its own, a JSON spec in, one JSON result line out), every request a different message so none is
 * a duplicate: `kind` otp, a one-time password from a sender that is no bank's (stored, ignored),
 * or `withdrawal`, a bank's withdrawal SMS (parsed, ignored). The device path's insert and its
 * duplicate check run against the phone's bank_messages as they grew.
 */
import autocannon from 'autocannon';
import type { LoadResult } from '../hot-paths/load.js';

type Spec = { url: string; token: string; seconds: number; connections: number; kind: 'otp' | 'withdrawal'; seed: number };
const spec = JSON.parse(process.argv[2]!) as Spec;
let n = 0;
const firstErrors: string[] = [];
const body = () => {
  const i = spec.seed * 1_000_000 + n++;
  const receivedAt = new Date().toISOString();
  return JSON.stringify(
    spec.kind === 'otp'
      ? { sender: '+989121110000', body: `کد تایید شما: ${100000 + (i % 900000)} (${i})`, receivedAt }
      : { sender: '+98700701', body: `حساب987654321\nبرداشت${(10_000 + (i % 1000) * 10).toLocaleString('en')}\nمانده${(90_000_000 + i).toLocaleString('en')}`, receivedAt },
  );
};
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.token}` },
  requests: [
    {
      method: 'POST',
      path: '/v1/device/messages',
      setupRequest: (req: autocannon.Request) => ({ ...req, body: body() }),
      onResponse: (status: number, text: string) => {
        if ((status < 200 || status >= 300) && firstErrors.length < 3) firstErrors.push(`${status} ${text.slice(0, 300)}`);
      },
    },
  ],
});
const out: LoadResult = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, firstErrors };
console.log(JSON.stringify(out));
