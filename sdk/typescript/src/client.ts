import { GatewayError } from './errors.js';
import type {
  CreatedPayment,
  CreatePaymentBody,
  ListPaymentsParams,
  Payment,
  PaymentPage,
  Refund,
  RefundBody,
  RefundList,
  VerifyResult,
} from './types.js';

export const SDK_VERSION = '1.0.0';

export type RetryOptions = {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** The first backoff; each retry doubles it, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** No backoff is longer (default 10 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
};

export type GatewayOptions = {
  /** The service's address, e.g. `https://pay.example.com` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  /** A project API key: `sk_test_…` (sandbox) or `sk_live_…`. Keep it on your server. */
  apiKey: string;
  retry?: RetryOptions;
  /** Each attempt is aborted after this long and counts as a network error (default 30 s). */
  timeoutMs?: number;
  /** Another `fetch` (a proxy agent, tests); the global one by default. */
  fetch?: typeof fetch;
  /**
   * Called when an answer says its route is deprecated (`Deprecation`, `Sunset`, `Link` headers:
   * docs/versioning.md); the call itself succeeds as usual. By default a warning is printed once
   * per route (`console.warn`); pass your logger, or `() => {}` to stay silent.
   */
  onDeprecation?: (notice: DeprecationNotice) => void;
};

/** What a deprecated route's answer said about itself. */
export type DeprecationNotice = {
  /** `GET /payments/{id}`. */
  route: string;
  /** The `Deprecation` header: `@<unix seconds>` (RFC 9745). */
  deprecation: string;
  /** The `Sunset` header: the HTTP-date after which it may stop answering (RFC 8594), if given. */
  sunset: string | undefined;
  /** The `Link` header: where the replacement is explained, if given. */
  link: string | undefined;
};

const warned = new Set<string>();
const warnOnce = (notice: DeprecationNotice) => {
  if (warned.has(notice.route)) return;
  warned.add(notice.route);
  console.warn(`@cardgateway/sdk: ${notice.route} is deprecated (${notice.deprecation})${notice.sunset ? `, sunset ${notice.sunset}` : ''}${notice.link ? `: ${notice.link}` : ''}`);
};

export type IdempotencyOptions = {
  /**
   * Makes the call safe to repeat: the service answers a repeat with the first answer (24 h).
   * When left out the SDK makes one (a random UUID) per call and resends it on every retry of
   * that call; pass your own (e.g. `order-1002`) to be safe across your own process restarts too.
   */
  idempotencyKey?: string;
};

export type RequestOptions = IdempotencyOptions & { signal?: AbortSignal };

type Call = {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

const newKey = () => globalThis.crypto.randomUUID();
const segment = (id: string) => encodeURIComponent(id);

/** The HTTP layer: one place that sends, retries and turns error envelopes into `GatewayError`. */
class Transport {
  private readonly base: string;
  private readonly apiKey: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly onDeprecation: (notice: DeprecationNotice) => void;

  constructor(options: GatewayOptions) {
    if (!options?.baseUrl) throw new TypeError('Gateway: baseUrl is required');
    if (!options.apiKey) throw new TypeError('Gateway: apiKey is required');
    this.base = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
    this.apiKey = options.apiKey;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 60_000, ...options.retry };
    this.onDeprecation = options.onDeprecation ?? warnOnce;
  }

  /**
   * Sends the call, retrying network errors, 429 and 5xx (`Retry-After` honoured, else exponential
   * backoff with full jitter) with the same Idempotency-Key, so a retried create, verify, reject or
   * refund takes effect once. A 503 `no_card_available` is not retried: cards free up in minutes,
   * not seconds, and the payer should be told at once. A 409 `idempotency_conflict` right after an
   * attempt that got no answer is retried too: that attempt may still be running on the service.
   */
  async send<T>(call: Call): Promise<T> {
    const url = new URL(this.base + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json',
      // Tells the operator which SDK version a shop runs (a browser may drop it; nothing depends on it).
      'user-agent': `cardgateway-sdk-typescript/${SDK_VERSION}`,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    let lastAttemptUnanswered = false;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.retry.maxRetries;
      let res: Response;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      try {
        res = await this.fetch(url, {
          method: call.method,
          headers,
          body,
          signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
        });
      } catch (cause) {
        if (call.signal?.aborted) throw cause;
        if (!canRetry) {
          throw new GatewayError({
            status: 0,
            code: 'network_error',
            message: `No answer from ${url.origin} after ${attempt + 1} attempt(s): ${(cause as Error)?.message ?? cause}`,
            idempotencyKey: call.idempotencyKey,
            cause,
          });
        }
        lastAttemptUnanswered = true;
        await sleep(this.backoff(attempt), call.signal);
        continue;
      }

      const deprecation = res.headers.get('deprecation');
      if (deprecation) {
        const route = `${call.method} ${call.path.replace(/^\/payments\/[^/]+/, '/payments/{id}')}`;
        this.onDeprecation({ route, deprecation, sunset: res.headers.get('sunset') ?? undefined, link: res.headers.get('link') ?? undefined });
      }
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.ok) return parsed as T;

      const envelope = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
      const code = typeof envelope?.code === 'string' ? envelope.code : `http_${res.status}`;
      const wait = retryAfterMs(res.headers.get('retry-after'));
      const error = new GatewayError({
        status: res.status,
        code,
        message: typeof envelope?.message === 'string' ? envelope.message : `HTTP ${res.status} ${res.statusText}`.trim(),
        details: envelope?.details && typeof envelope.details === 'object' ? (envelope.details as Record<string, unknown>) : {},
        body: parsed ?? text,
        retryAfterSeconds: wait === undefined ? undefined : Math.ceil(wait / 1000),
        idempotencyKey: call.idempotencyKey,
      });
      const transient =
        res.status === 429 ||
        (res.status >= 500 && code !== 'no_card_available') ||
        (res.status === 409 && code === 'idempotency_conflict' && lastAttemptUnanswered);
      if (!canRetry || !transient) throw error;
      if (wait !== undefined && wait > this.retry.maxRetryAfterMs) throw error;
      // Still unanswered while the service says the first attempt is running.
      if (res.status !== 409) lastAttemptUnanswered = false;
      await sleep(Math.max(wait ?? 0, this.backoff(attempt)), call.signal);
    }
  }

  /** Full jitter: a random delay up to base × 2^attempt, capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    return Math.random() * ceiling;
  }
}

/** `gateway.payments.refunds`: refunds you paid back from your bank, recorded on a payment. */
export class Refunds {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/payments/{id}/refunds`: records one refund (a retry with the same key records it once). */
  create(paymentId: string, body: RefundBody, options: RequestOptions = {}): Promise<Refund> {
    return this.transport.send({
      method: 'POST',
      path: `/payments/${segment(paymentId)}/refunds`,
      body,
      idempotencyKey: options.idempotencyKey ?? newKey(),
      signal: options.signal,
    });
  }

  /** `GET /v1/payments/{id}/refunds`: the payment's refunds, oldest first (`{ items }`). */
  list(paymentId: string, options: { signal?: AbortSignal } = {}): Promise<RefundList> {
    return this.transport.send({ method: 'GET', path: `/payments/${segment(paymentId)}/refunds`, signal: options.signal });
  }
}

/** `gateway.payments`. */
export class Payments {
  readonly refunds: Refunds;

  constructor(private readonly transport: Transport) {
    this.refunds = new Refunds(transport);
  }

  /** `POST /v1/payments`: the payment with `checkoutUrl`; send the payer there. */
  create(body: CreatePaymentBody, options: RequestOptions = {}): Promise<CreatedPayment> {
    return this.transport.send({ method: 'POST', path: '/payments', body, idempotencyKey: options.idempotencyKey ?? newKey(), signal: options.signal });
  }

  /** `GET /v1/payments/{id}`. */
  get(id: string, options: { signal?: AbortSignal } = {}): Promise<Payment> {
    return this.transport.send({ method: 'GET', path: `/payments/${segment(id)}`, signal: options.signal });
  }

  /** `GET /v1/payments`: one page, newest first, as REST answers it (`{ items, page, pageSize, total }`). */
  list(params: ListPaymentsParams = {}, options: { signal?: AbortSignal } = {}): Promise<PaymentPage> {
    return this.transport.send({ method: 'GET', path: '/payments', query: params, signal: options.signal });
  }

  /**
   * Every payment the filters match, page after page (`for await (const p of gateway.payments.iterate({ status: 'confirmed' }))`).
   * Pages are read as the loop needs them; newest first, so a payment created meanwhile may push
   * one already seen onto the next page: the iterator skips ids it has already yielded.
   */
  async *iterate(params: ListPaymentsParams = {}, options: { signal?: AbortSignal } = {}): AsyncGenerator<Payment, void, undefined> {
    const seen = new Set<string>();
    for (let page = params.page ?? 1; ; page++) {
      const answer = await this.list({ ...params, page }, options);
      for (const payment of answer.items) {
        if (seen.has(payment.id)) continue;
        seen.add(payment.id);
        yield payment;
      }
      if (answer.items.length === 0 || page * answer.pageSize >= answer.total) return;
    }
  }

  /**
   * `POST /v1/payments/{id}/verify` with the amount you stored with the order (in `currency`, IRR
   * by default): fulfil only when `verified` is true. An amount that is not the payment's throws
   * `GatewayError` 409 `amount_mismatch` (`details.amountRequested`, `details.given`, in rials).
   */
  verify(id: string, check?: { amount: number | string; currency?: 'IRR' | 'IRT' }, options: RequestOptions = {}): Promise<VerifyResult> {
    return this.transport.send({
      method: 'POST',
      path: `/payments/${segment(id)}/verify`,
      body: check === undefined ? {} : { amount: check.amount, ...(check.currency ? { currency: check.currency } : {}) },
      idempotencyKey: options.idempotencyKey ?? newKey(),
      signal: options.signal,
    });
  }

  /** `POST /v1/payments/{id}/reject`: ends a pending payment as rejected (409 `invalid_state` otherwise). */
  reject(id: string, body: { reason: string } = { reason: 'Rejected by the shop' }, options: RequestOptions = {}): Promise<Payment> {
    return this.transport.send({
      method: 'POST',
      path: `/payments/${segment(id)}/reject`,
      body,
      idempotencyKey: options.idempotencyKey ?? newKey(),
      signal: options.signal,
    });
  }
}

/** The gateway's `/v1` REST API with a project API key. */
export class Gateway {
  readonly payments: Payments;
  /** The same object as `payments.refunds` (as the PHP SDK's `$client->refunds`). */
  readonly refunds: Refunds;

  constructor(options: GatewayOptions) {
    this.payments = new Payments(new Transport(options));
    this.refunds = this.payments.refunds;
  }
}
