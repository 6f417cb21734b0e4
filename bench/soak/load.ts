/**
 * The soak's load, in a process of its own (spawned with an IPC channel): payments created and paid
 * by their phone's Mellat SMS at a steady rate, a webhook receiver, and SOAK_SUBSCRIPTIONS checkout
 * pages subscribed to the pending payments (SSE and graphql-ws alternately). Every request goes
 * through one keep-alive client (undici's fetch), as a shop's backend would; a GraphQL client asks
 * for the schema (introspection) twice a minute and sends its next request at once on the same pool.
 */
import { getIntrospectionQuery } from 'graphql';
import { mellatDeposit } from '../../test/support/sms.js';
import { Receiver } from '../../test/support/receiver.js';
import { openSse, openWs, type Subscriber } from '../subscriptions/subscribers.js';

export type LoadConfig = {
  baseUrl: string;
  apiKey: string;
  deviceToken: string;
  account: string;
  /** Payments created (and as many paid) per second. */
  rate: number;
  seconds: number;
  subscriptions: number;
};

export type Minute = {
  minute: number;
  creates: number;
  deposits: number;
  webhooks: number;
  createP50: number;
  createP99: number;
  depositP99: number;
  webhookP99: number;
  subscriberP99: number;
  errors: number;
};

export type LoadReport = {
  minutes: Minute[];
  created: number;
  deposited: number;
  webhooks: number;
  missingWebhooks: number;
  subscriptionsOpened: number;
  subscriptionsCompleted: number;
  introspections: number;
  errors: number;
  resets: number;
  errorSamples: string[];
  lastMinute: { creates: number; deposits: number; webhooks: number; p99: number };
};

const CHECKOUT = 'subscription($t: String!) { checkoutStatus(token: $t) { status } }';
const INTROSPECTION = JSON.stringify({ query: getIntrospectionQuery() });

type Payment = { id: string; token: string; amountFinal: string; createdAt: number; depositAt?: number; webhookAt?: number; confirmedSeenAt?: number; sub?: Subscriber };

const receiver = await new Receiver().start();
const pending: Payment[] = [];
const byId = new Map<string, Payment>();
const samples = { create: [] as [number, number][], deposit: [] as [number, number][], webhook: [] as [number, number][], subscriber: [] as [number, number][] };
const errorsAt: number[] = [];
const errorSamples: string[] = [];
let resets = 0;
let openSubs = 0;
let subsOpened = 0;
let subsCompleted = 0;
let introspections = 0;
let transportTurn = 0;
let t0 = Date.now();

function fail(what: string, err?: unknown) {
  errorsAt.push(Date.now());
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const text = `${what}${err ? `: ${(err as Error).message}` : ''}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`;
  if (/other side closed|ECONNRESET|socket hang up|UND_ERR_SOCKET|EPIPE/.test(text)) resets++;
  if (errorSamples.length < 10) errorSamples.push(text);
}

async function call(method: string, path: string, token: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${cfg.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

receiver.respond = (r, res) => {
  res.writeHead(200).end('ok');
  const p = byId.get(r.json?.paymentId);
  if (p && r.json?.event === 'payment.confirmed' && p.depositAt && !p.webhookAt) {
    p.webhookAt = r.at;
    samples.webhook.push([p.depositAt, r.at - p.depositAt]);
  }
};

function subscribe(p: Payment) {
  if (openSubs >= cfg.subscriptions) return;
  openSubs++;
  subsOpened++;
  const open = transportTurn++ % 2 === 0 ? openSse : openWs;
  open(cfg.baseUrl, CHECKOUT, { t: p.token }, {
    onEvent: (payload) => {
      const status = (payload.data as { checkoutStatus?: { status: string } } | undefined)?.checkoutStatus?.status;
      if (payload.errors) fail(`subscription event with errors ${JSON.stringify(payload.errors).slice(0, 120)}`);
      if (status === 'confirmed' && p.depositAt && !p.confirmedSeenAt) {
        p.confirmedSeenAt = Date.now();
        samples.subscriber.push([p.depositAt, p.confirmedSeenAt - p.depositAt]);
      }
    },
    onEnd: (how) => {
      openSubs--;
      p.sub = undefined;
      if (how === 'complete' && p.confirmedSeenAt) subsCompleted++;
      else fail(`subscription ended: ${how}${p.depositAt ? '' : ' (before its deposit)'}`);
    },
  })
    .then((sub) => {
      p.sub = sub;
    })
    .catch((err: unknown) => {
      openSubs--;
      fail('subscription open', err);
    });
}

let n = 0;
async function create(): Promise<void> {
  const started = Date.now();
  const amount = 100_000 + (n++ % 200) * 10_000;
  try {
    const { status, json } = await call('POST', '/v1/payments', cfg.apiKey, { amount, callbackUrl: 'https://shop.example.com/return' });
    samples.create.push([started, Date.now() - started]);
    if (status !== 201 && status !== 200) return fail(`create answered ${status} ${JSON.stringify(json).slice(0, 120)}`);
    const p: Payment = { id: json.id, token: json.token, amountFinal: json.amountFinal, createdAt: started };
    byId.set(p.id, p);
    pending.push(p);
    subscribe(p);
  } catch (err) {
    fail('create', err);
  }
}

async function deposit(p: Payment): Promise<void> {
  const started = Date.now();
  p.depositAt = started;
  try {
    const body = { sender: 'BankMellat', body: mellatDeposit({ account: cfg.account, amount: p.amountFinal }), receivedAt: new Date().toISOString() };
    const { status, json } = await call('POST', '/v1/device/messages', cfg.deviceToken, body);
    samples.deposit.push([started, Date.now() - started]);
    if (status !== 202 || json?.status !== 'matched') fail(`deposit answered ${status} ${JSON.stringify(json).slice(0, 160)}`);
  } catch (err) {
    fail('deposit', err);
  }
}

/** The reported client: an introspection answer (~170 KB), then its next request at once, same pool. */
async function introspect(): Promise<void> {
  try {
    const res = await fetch(`${cfg.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: INTROSPECTION });
    const json = (await res.json()) as { data?: unknown };
    if (!json.data) return fail(`introspection answered ${res.status}`);
    const next = await fetch(`${cfg.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    await next.text();
    introspections++;
  } catch (err) {
    fail('introspection pair', err);
  }
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

function minutes(): Minute[] {
  const count = Math.ceil(cfg.seconds / 60);
  const at = (xs: [number, number][], m: number) => xs.filter(([t]) => t >= t0 + m * 60_000 && t < t0 + (m + 1) * 60_000).map(([, v]) => v);
  return Array.from({ length: count }, (_, m) => ({
    minute: m + 1,
    creates: at(samples.create, m).length,
    deposits: at(samples.deposit, m).length,
    webhooks: at(samples.webhook, m).length,
    createP50: pct(at(samples.create, m), 50),
    createP99: pct(at(samples.create, m), 99),
    depositP99: pct(at(samples.deposit, m), 99),
    webhookP99: pct(at(samples.webhook, m), 99),
    subscriberP99: pct(at(samples.subscriber, m), 99),
    errors: errorsAt.filter((t) => t >= t0 + m * 60_000 && t < t0 + (m + 1) * 60_000).length,
  }));
}

let cfg: LoadConfig;

/** Pending payments with their pages subscribed, before the clock starts. */
async function warmUp() {
  for (let i = 0; i < cfg.subscriptions; i += 20) await Promise.all(Array.from({ length: Math.min(20, cfg.subscriptions - i) }, () => create()));
  for (let i = 0; i < 100 && openSubs < Math.min(cfg.subscriptions, pending.length); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Open loop: each tick creates one payment and pays the oldest pending one; the pages follow. */
async function run() {
  t0 = Date.now();
  const interval = 1000 / cfg.rate;
  const inFlight = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  let lastIntrospection = t0;
  for (let tick = 0; Date.now() < t0 + cfg.seconds * 1000; tick++) {
    const due = t0 + tick * interval;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    track(create());
    if (pending.length > cfg.subscriptions) track(deposit(pending.shift()!));
    if (Date.now() - lastIntrospection >= 30_000) {
      lastIntrospection = Date.now();
      track(introspect());
    }
  }
  await Promise.all(inFlight);
}

async function finish(): Promise<LoadReport> {
  // Webhooks of the last deposits: up to 30 s.
  const paid = () => [...byId.values()].filter((p) => p.depositAt);
  for (let i = 0; i < 300 && paid().some((p) => !p.webhookAt); i++) await new Promise((r) => setTimeout(r, 100));
  const missing = paid().filter((p) => !p.webhookAt).length;
  if (missing) fail(`${missing} deposits without their payment.confirmed webhook after 30 s`);
  const last = samples.create.filter(([t]) => t >= t0 + cfg.seconds * 1000 - 60_000).map(([, v]) => v);
  const report: LoadReport = {
    minutes: minutes(),
    created: samples.create.length,
    deposited: samples.deposit.length,
    webhooks: samples.webhook.length,
    missingWebhooks: missing,
    subscriptionsOpened: subsOpened,
    subscriptionsCompleted: subsCompleted,
    introspections,
    errors: errorsAt.length,
    resets,
    errorSamples,
    lastMinute: { creates: last.length, deposits: 0, webhooks: 0, p99: pct(last, 99) },
  };
  return report;
}

async function closeSubscriptions() {
  for (const p of byId.values()) {
    const sub = p.sub;
    p.sub = undefined;
    sub?.close();
  }
  openSubs = 0;
  await new Promise((r) => setTimeout(r, 500));
  await receiver.stop();
}

type Request = { id: number; kind: 'warm-up'; config: LoadConfig } | { id: number; kind: 'run' } | { id: number; kind: 'finish' } | { id: number; kind: 'close' };

process.on('message', (m: Request) => {
  void (async () => {
    if (m.kind === 'warm-up') {
      cfg = m.config;
      await warmUp();
      process.send!({ id: m.id, open: openSubs, pending: pending.length });
    } else if (m.kind === 'run') {
      await run();
      process.send!({ id: m.id, open: openSubs });
    } else if (m.kind === 'finish') {
      process.send!({ id: m.id, report: await finish() });
    } else {
      await closeSubscriptions();
      process.send!({ id: m.id });
    }
  })().catch((err: unknown) => process.send!({ id: m.id, error: String(err) }));
});
process.send!({ id: 0, receiverUrl: receiver.url });
