/**
 * An answer of the API that is not a success, with its error envelope intact: `code` (stable,
 * branch on it), `message` (for people), `details` (e.g. `fields` of `invalid_request`,
 * `amountRequested`/`given` of `amount_mismatch`, `reasons` of `no_card_available`). `status` is
 * the HTTP status, 0 when no answer came at all (network error, timeout) after every retry.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** The parsed body as the service sent it (the whole envelope), or its text when it was not JSON. */
  readonly body: unknown;
  /** `Retry-After` in seconds, when the answer had one. */
  readonly retryAfterSeconds: number | undefined;
  /** The Idempotency-Key the request was sent (and resent) with, if any. */
  readonly idempotencyKey: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    body?: unknown;
    retryAfterSeconds?: number;
    idempotencyKey?: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.body = init.body;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/** Why `verifyWebhook` refused a delivery; the body was not parsed. */
export type WebhookSignatureReason = 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' | 'invalid_body';

/** A webhook delivery that is not provably ours and fresh: answer it 400 and do nothing else. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  readonly reason: WebhookSignatureReason;

  constructor(reason: WebhookSignatureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
