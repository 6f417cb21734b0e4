import type { components, operations } from './openapi-types.js';

/**
 * What the API may add inside `/v1` without a new major version (docs/versioning.md): fields,
 * enum values, event types. `Open<T>` is a generated response type made tolerant of that: every
 * string enum also admits any other string and every object any other field, so code written
 * against today's types still compiles, and still runs, when the service answers with more.
 */
export type Open<T> = T extends string
  ? string extends T
    ? T
    : T | (string & {})
  : T extends readonly (infer U)[]
    ? Open<U>[]
    : T extends object
      ? { [K in keyof T]: Open<T[K]> } & { readonly [field: string]: unknown }
      : T;

type Schemas = components['schemas'];
type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

export type PaymentStatus = Open<Schemas['Payment']['status']>;
export type Payment = Open<Schemas['Payment']>;
export type CreatedPayment = Open<Schemas['CreatedPayment']>;
export type PaymentPage = Open<Schemas['PaymentPage']>;
export type VerifyResult = Open<Schemas['VerifyResult']>;
export type Refund = Open<operations['recordRefund']['responses'][201]['content']['application/json']>;
export type RefundList = Open<operations['listRefunds']['responses'][200]['content']['application/json']>;

export type CreatePaymentBody = JsonBody<operations['createPayment']>;
export type RefundBody = JsonBody<operations['recordRefund']>;
export type RejectBody = JsonBody<operations['rejectPayment']>;
export type VerifyBody = NonNullable<JsonBody<operations['verifyPayment']>>;
export type ListPaymentsParams = NonNullable<operations['listPayments']['parameters']['query']>;

/** The error envelope every `/v1` error answers with. */
export type ErrorEnvelope = {
  error: { code: string; message: string; details: Record<string, unknown> };
  details?: Record<string, unknown>;
};

/**
 * A webhook's body, as `verifyWebhook` returns it once the signature and timestamp are checked.
 * Payment events (`payment.*`) carry the payment fields; device events (`device.*`) others; new
 * event types may come at any time, so branch on `event` and ignore what you do not know.
 */
export type WebhookEvent = {
  event: string;
  deliveryId: string;
  sentAt: string;
  paymentId?: string;
  status?: string;
  orderId?: string | null;
  amountRequested?: string;
  amountFinal?: string;
  confirmedAt?: string | null;
  confirmationSource?: string | null;
  sandbox?: boolean;
  metadata?: Record<string, unknown> | null;
  reason?: string | null;
  readonly [field: string]: unknown;
};
