import { z } from 'zod';
import { batchInput, messageInput } from '../domain/bank-messages/messages.js';
import { forwarderBodySchemas } from '../domain/devices/forwarder-payloads.js';
import { telemetryInput } from '../domain/devices/telemetry.js';
import { reportInput } from '../domain/checkout/checkout.js';
import { linkPaymentInput } from '../domain/links/public.js';
import { verifyInput } from '../domain/payments/actions.js';
import { createPaymentSchema } from '../domain/payments/create-payment.js';
import { listPaymentsSchema } from '../domain/payments/queries.js';
import { simulateInput } from '../domain/sandbox/simulation.js';
import { resetInput } from '../domain/users/password-reset.js';
import { setPasswordInput, signInInput } from '../domain/users/sessions.js';
import { errors, responseComponents, type ErrorStatus } from './openapi-errors.js';
import { exportPaths, exportsTag, merchantKeyScheme } from './openapi-exports.js';
import { refundPaths } from './openapi-refunds.js';
import { AMOUNT_INPUT, EXAMPLES, idempotencyKeyHeader, schemas } from './openapi-schemas.js';

type Schema = Record<string, unknown>;

/** zod's `amount` (a preprocessing schema) has no JSON Schema of its own: it is typed by hand. */
const isUntypedAmount = (s: Schema) => Array.isArray(s.anyOf) && s.anyOf.some((v) => typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** Drops zod's long format regexes (the format says it) and types amounts; recursive. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const s = value as Schema;
  if (isUntypedAmount(s)) return { $ref: '#/components/schemas/AmountInput' };
  const out: Schema = {};
  for (const [key, v] of Object.entries(s)) {
    if (key === 'pattern' && typeof s.format === 'string') continue;
    out[key] = tidy(v);
  }
  return out;
}

/** Request schemas come from the same zod schemas the domain validates with, so they cannot drift. */
const jsonSchema = (schema: z.ZodType): Schema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
  return tidy(rest) as Schema;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown, example?: unknown) => ({ content: { 'application/json': { schema, ...(example ? { example } : {}) } } });

type Op = {
  id: string;
  tag: string;
  summary: string;
  description: string;
  auth: 'project' | 'device' | 'public';
  ok: [status: number, description: string, schema?: unknown, example?: unknown];
  errors: ErrorStatus[];
  params?: Schema[];
  body?: [schema: z.ZodType, example: unknown];
  /** The body may be left out (verify: without one it checks no amount). */
  bodyOptional?: boolean;
  /** A request body beyond one zod schema (the forwarder apps' shapes, form-encoded too). */
  requestBody?: Schema;
};

const SECURITY = { project: [{ projectKey: [] }], device: [{ deviceToken: [] }], public: [] };

function operation(op: Op) {
  const [status, description, schema, example] = op.ok;
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: SECURITY[op.auth],
    ...(op.params ? { parameters: op.params } : {}),
    ...(op.body ? { requestBody: { required: !op.bodyOptional, ...json(jsonSchema(op.body[0]), op.body[1]) } } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    responses: { [status]: { description, ...(schema ? json(schema, example) : {}) }, ...errors(...op.errors) },
  };
}

const pathParam = (name: string, description: string, schema: Schema, example: string) => ({ name, in: 'path', required: true, description, schema, example });
const PAYMENT_ID = EXAMPLES.payment.id;
const paymentId = pathParam('id', 'The payment UUID (the callback’s `service_ref`).', { type: 'string', format: 'uuid' }, PAYMENT_ID);
const token = pathParam('token', 'The payment token.', { type: 'string', minLength: 10, maxLength: 64 }, 'q9mJ3v0c6Yh1cP4m2yXbq3Zk7wT0aN5dLr8sVf2eHgU');
const slug = pathParam('slug', 'The payment link’s slug.', { type: 'string', pattern: '^[a-z0-9-]{3,64}$' }, 'donate');

// Query strings carry text; zod reads digits and `true`/`false` in it (and GraphQL's typed values),
// so the JSON Schema zod prints is looser than the rule: these are the query string's types.
const QUERY_TYPES: Record<string, Schema> = {
  reviewRequired: { type: 'boolean' },
  reported: { type: 'boolean' },
  sandbox: { type: 'boolean' },
  amount: { type: 'string', pattern: '^[0-9۰-۹٠-٩]+$' },
  cardLast4: { type: 'string', pattern: '^[0-9۰-۹٠-٩]{4}$' },
  page: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};

// The filters are GraphQL's `payments` arguments, with the same names and rules (src/domain/payments/list-filter.ts).
const LIST_PARAMS: Record<string, [description: string, example: string | number | boolean]> = {
  status: ['Only payments in this state.', 'confirmed'],
  orderId: ['Only payments with this order identifier.', 'order-1001'],
  from: ['Created at or after (RFC 3339).', '2026-11-21T00:00:00.000Z'],
  to: ['Created at or before (RFC 3339).', '2026-11-21T23:59:59.999Z'],
  reviewRequired: ['`true`: only payments flagged for your review (see `reviewReason`); `false`: only those not flagged.', true],
  reported: ['`true`: the payer reported paying on the checkout page and the payment is not confirmed (“reported paying, nothing came”); `false`: no report.', true],
  amount: ['Only payments whose `amountFinal` or `amountRequested` is this many rials (10,000..1,000,000,000; Persian and Arabic-Indic digits accepted).', '1500370'],
  cardLast4: ['Only payments to one of your cards ending in these four digits, or whose payer’s card ends in them.', '7893'],
  sandbox: ['`false`: only live payments; `true`: only sandbox payments (a project is one or the other, so this matters to merchant-wide lists).', false],
  page: ['Page number, from 1 (default 1).', 1],
  pageSize: ['Items per page (default 20, at most 100).', 20],
};

const hookSecret = pathParam('secret', 'The device’s hook secret (dh_…) from createDevice or issueDeviceHook; it stands for the device token.', { type: 'string', pattern: '^dh_[A-Za-z0-9]{20,128}$' }, 'dh_Jx7Q2mV9kLp4Rt8Wz1Nc6Hb3Fy5Gd0Se2Ua7Xo9');
const SMS_EXAMPLE = { sender: '+98700717', body: 'واریز 1,500,370 ریال ...', receivedAt: '2026-11-21T08:45:10.000Z' };
const BATCH_EXAMPLE = { messages: [SMS_EXAMPLE, { ...SMS_EXAMPLE, body: 'واریز 250,110 ریال ...', receivedAt: '2026-11-21T08:47:02.000Z' }] };

/** Our own `{sender, body, receivedAt}` or a forwarder app's webhook body (docs/forwarders.md). */
const FORWARDED_BODY = {
  required: true,
  content: {
    'application/json': {
      schema: {
        description: 'Our own shape, or the webhook body of SmsForwarder (pppscn), Incoming SMS to URL forwarder (bogkonstantin) or SMS Gateway for Android (capcom6).',
        anyOf: [jsonSchema(messageInput), ...Object.values(forwarderBodySchemas).map(jsonSchema)],
      },
      example: SMS_EXAMPLE,
    },
    'application/x-www-form-urlencoded': {
      schema: jsonSchema(forwarderBodySchemas.smsForwarder),
      example: { from: '+98700717', content: 'واریز 1,500,370 ریال ...', timestamp: '1795499100000' },
    },
  },
};
const FORWARDED_DESCRIPTION =
  'Stored raw first, then parsed and matched before the answer; `status` is the outcome. Takes our own `{sender, body, receivedAt}` or the webhook body of a forwarder app (docs/forwarders.md): a capcom6 `sms:batch:received` event answers like the batch route, its `system:ping` counts as a heartbeat and its other events are acknowledged with 204, nothing stored.';
const BATCH_DESCRIPTION =
  'Backfill of SMS a phone missed or queued while offline: 1..500 messages (body up to 1 MiB). All are checked first (an error names its index, e.g. `messages[3].body`); each is stored raw in the order sent, with the single route’s duplicate rule, then processed one at a time in bank-time order (receivedAt when the text carries no time). Answers in the order sent.';

export function openApiDocument(publicBaseUrl: string) {
  const list = jsonSchema(listPaymentsSchema) as { properties: Record<string, Schema> };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Card-to-card payment gateway',
      version: '1.0.0',
      description:
        'REST adapter of the GraphQL-first API. Create a payment, send the payer to `checkoutUrl`, verify when the payer returns or a webhook arrives. Every error is the envelope in `#/components/schemas/Error`. Guides: docs/integration.md in the repository.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative, so the document is right behind any proxy or host name it is reached by.
    servers: [{ url: '/v1', description: 'This service' }],
    externalDocs: { description: 'API reference page', url: `${publicBaseUrl}/docs` },
    tags: [
      { name: 'Payments', description: 'Create, read, verify and reject payments (project API key).' },
      { name: 'Sandbox', description: 'Simulated deposits for sandbox projects.' },
      { name: 'Checkout', description: 'The payer’s side: public, addressed by payment token or link slug.' },
      { name: 'Device', description: 'SMS-forwarding phones (device token).' },
      { name: 'Session', description: 'Dashboard sign-in: an HttpOnly session cookie for the dashboard’s own pages.' },
      exportsTag,
    ],
    components: {
      schemas: { ...schemas, AmountInput: AMOUNT_INPUT },
      responses: responseComponents,
      securitySchemes: {
        projectKey: { type: 'http', scheme: 'bearer', description: 'A project API key: sk_test_… (sandbox) or sk_live_… (live).' },
        deviceToken: { type: 'http', scheme: 'bearer', description: 'A device token, dt_…, of an SMS-forwarding phone.' },
        ...merchantKeyScheme,
      },
    },
    paths: {
      '/payments': {
        post: operation({
          id: 'createPayment', tag: 'Payments', auth: 'project', summary: 'Create a payment',
          description:
            'Selects one of the project’s cards, adds a unique code to the amount and reserves the fee (live projects). Send the payer to `checkoutUrl`. `amount` is in `currency`: IRR (rials, the default) or IRT (toman, stored × 10); the range 10,000..1,000,000,000 applies to the rials. A field this body does not define is 400 naming it. With an `Idempotency-Key` (≤ 255 characters, kept 24 h per project) the same key and the same JSON body (key order and spacing aside) replay the first 201 byte for byte.',
          params: [idempotencyKeyHeader('a retried create makes one payment')],
          body: [createPaymentSchema, { amount: 1500000, currency: 'IRR', callbackUrl: 'https://shop.example.com/return', orderId: 'order-1001', description: 'Two books', metadata: { customerId: 42 } }],
          ok: [201, 'Created: the payment record with `checkoutUrl`.', ref('CreatedPayment'), EXAMPLES.createdPayment],
          errors: [400, 401, 402, 403, 409, 413, 422, 429, 503],
        }),
        get: operation({
          id: 'listPayments', tag: 'Payments', auth: 'project', summary: 'List payments',
          description: 'Newest first (createdAt, then id, descending). `from` and `to` are inclusive. The filters are those of GraphQL’s `payments` connection, by the same names; they combine (all must hold). A value a filter does not accept is 400 `invalid_request` naming it in `details.fields`.',
          params: Object.entries(list.properties).map(([name, schema]) => ({ name, in: 'query', required: false, description: LIST_PARAMS[name]?.[0] ?? name, example: LIST_PARAMS[name]?.[1], schema: QUERY_TYPES[name] ?? schema })),
          ok: [200, 'One page of payments.', ref('PaymentPage'), EXAMPLES.paymentPage],
          errors: [400, 401, 403, 429],
        }),
      },
      '/payments/{id}': {
        get: operation({
          id: 'getPayment', tag: 'Payments', auth: 'project', summary: 'Get a payment',
          description: 'The payment record, at any time. Another project’s id answers 404 like an unknown one.',
          params: [paymentId], ok: [200, 'The payment record.', ref('Payment'), EXAMPLES.payment], errors: [401, 403, 404, 429],
        }),
      },
      '/payments/{id}/verify': {
        post: operation({
          id: 'verifyPayment', tag: 'Payments', auth: 'project', summary: 'Verify a payment',
          description:
            'Idempotent. Call it when the payer returns (with `service_ref`) or a webhook arrives; fulfil the order only when `verified` is true. Every call counts in `verifyCount`; `alreadyVerified` tells a repeat. The body is optional: with `amount` (in `currency`, IRR by default or IRT) that is not the payment’s `amountRequested` once in rials, the answer is 409 `amount_mismatch` with `details: {amountRequested, given}` (rials) and the call is not counted.',
          params: [paymentId, idempotencyKeyHeader('a retried verify is counted once in `verifyCount`')], body: [verifyInput, { amount: 1500000, currency: 'IRR' }], bodyOptional: true,
          ok: [200, 'The verify result.', ref('VerifyResult'), EXAMPLES.verifyResult], errors: [400, 401, 403, 404, 409, 413, 429],
        }),
      },
      ...refundPaths(jsonSchema),
      '/payments/{id}/reject': {
        post: operation({
          id: 'rejectPayment', tag: 'Payments', auth: 'project', summary: 'Reject a pending payment',
          description: 'Ends a pending payment as rejected and sends `payment.rejected` with the reason. Not pending → 409 `invalid_state`.',
          params: [paymentId, idempotencyKeyHeader('a retried rejection answers as the first did, not 409 `invalid_state`')], body: [z.object({ reason: z.string().min(1).max(300) }), { reason: 'Out of stock' }],
          ok: [200, 'The rejected payment.', ref('Payment'), EXAMPLES.rejected], errors: [400, 401, 403, 404, 409, 413, 429],
        }),
      },
      '/sandbox/deposits': {
        post: operation({
          id: 'simulateDeposit', tag: 'Sandbox', auth: 'project', summary: 'Simulate a deposit',
          description:
            'Sandbox projects only (403 `sandbox_only` otherwise). Name the payment by `paymentId` or `token` (both must name the same one). `match` confirms; `base_amount` (code missing) needs review; `wrong_amount` matches nothing; `custom` deposits `amount`.',
          params: [idempotencyKeyHeader('a retried simulation feeds one deposit')],
          body: [simulateInput, { paymentId: PAYMENT_ID, outcome: 'match' }],
          ok: [200, 'The outcome.', ref('SimulationResult'), EXAMPLES.simulation], errors: [400, 401, 403, 404, 409, 413, 429],
        }),
      },
      '/checkout/{token}': {
        get: operation({
          id: 'getCheckout', tag: 'Checkout', auth: 'public', summary: 'Get the checkout view',
          description: 'Public: what the payer sees — amount, card, countdown, branding.',
          params: [token], ok: [200, 'The checkout view.', ref('CheckoutView'), EXAMPLES.checkoutView], errors: [404, 429],
        }),
      },
      '/checkout/{token}/report': {
        post: operation({
          id: 'reportCheckoutPayment', tag: 'Checkout', auth: 'public', summary: 'Report the transfer',
          description: 'Public: the payer says they transferred (all fields optional). Pending payments only.',
          params: [token, idempotencyKeyHeader('a retried report answers as the first did')], body: [reportInput, { payerCardLast4: '1234', payerTrackingNumber: '123456789' }],
          ok: [200, 'The checkout view.', ref('CheckoutView'), EXAMPLES.checkoutView], errors: [400, 404, 409, 413, 429],
        }),
      },
      '/checkout/{token}/cancel': {
        post: operation({
          id: 'cancelCheckout', tag: 'Checkout', auth: 'public', summary: 'Cancel the payment',
          description: 'Public: the payer gives up; pending → canceled and `payment.canceled` is sent.',
          params: [token, idempotencyKeyHeader('a retried cancel answers as the first did, not 409 `invalid_state`')], ok: [200, 'The checkout view.', ref('CheckoutView'), EXAMPLES.checkoutView], errors: [404, 409, 429],
        }),
      },
      '/links/{slug}': {
        get: operation({
          id: 'getPaymentLink', tag: 'Checkout', auth: 'public', summary: 'Get a payment link',
          description: 'Public: a payment link’s title, amount (or min..max) and branding. Unknown or inactive → 404.',
          params: [slug], ok: [200, 'The payment link.', ref('PaymentLink'), EXAMPLES.paymentLink], errors: [404, 429],
        }),
      },
      '/links/{slug}/payments': {
        post: operation({
          id: 'createLinkPayment', tag: 'Checkout', auth: 'public', summary: 'Start a payment from a link',
          description:
            'Public: `amount` (in `currency`: IRR, the default, or IRT = toman) is required when the link has no fixed amount (outside min..max once in rials → 400 naming `amount`), else ignored. A field this body does not define is 400 naming it. ' +
            'One client address holds at most 3 pending payments of one link: the next → 429 `rate_limited` with `Retry-After` until one of them ends.',
          params: [slug, idempotencyKeyHeader('a retried tap starts one payment')], body: [linkPaymentInput, { amount: 25000, currency: 'IRT', payerPhone: '09121234567' }],
          ok: [201, 'Created: send the payer to `checkoutUrl`.', ref('LinkPayment'), EXAMPLES.linkPayment], errors: [400, 402, 403, 404, 409, 413, 429, 503],
        }),
      },
      '/device/messages': {
        post: operation({
          id: 'postBankMessage', tag: 'Device', auth: 'device', summary: 'Forward one bank SMS',
          description: FORWARDED_DESCRIPTION, requestBody: FORWARDED_BODY,
          ok: [202, 'Stored and processed.', ref('BankMessageOutcome'), EXAMPLES.bankMessageOutcome], errors: [400, 401, 403, 413, 429],
        }),
      },
      '/device/messages/batch': {
        post: operation({
          id: 'postBankMessageBatch', tag: 'Device', auth: 'device', summary: 'Backfill missed bank SMS',
          description: BATCH_DESCRIPTION, body: [batchInput, BATCH_EXAMPLE],
          ok: [202, 'Stored and processed, in the order sent.', ref('BankMessageBatchOutcome'), EXAMPLES.bankMessageBatchOutcome], errors: [400, 401, 403, 413, 429],
        }),
      },
      '/device/hooks/{secret}': {
        post: operation({
          id: 'postBankMessageByHook', tag: 'Device', auth: 'public', summary: 'Forward one bank SMS by hook URL',
          description: `For forwarder apps that cannot send an Authorization header: the hook secret in the path stands for the device token (unknown, reissued or revoked → 401). ${FORWARDED_DESCRIPTION}`,
          params: [hookSecret], requestBody: FORWARDED_BODY,
          ok: [202, 'Stored and processed.', ref('BankMessageOutcome'), EXAMPLES.bankMessageOutcome], errors: [400, 401, 403, 413, 429],
        }),
      },
      '/device/hooks/{secret}/batch': {
        post: operation({
          id: 'postBankMessageBatchByHook', tag: 'Device', auth: 'public', summary: 'Backfill missed bank SMS by hook URL',
          description: `The batch route with the hook secret standing for the device token. ${BATCH_DESCRIPTION}`,
          params: [hookSecret], body: [batchInput, BATCH_EXAMPLE],
          ok: [202, 'Stored and processed, in the order sent.', ref('BankMessageBatchOutcome'), EXAMPLES.bankMessageBatchOutcome], errors: [400, 401, 403, 413, 429],
        }),
      },
      '/device/hooks/{secret}/heartbeat': {
        post: operation({
          id: 'postHeartbeatByHook', tag: 'Device', auth: 'public', summary: 'Say the phone is online, by hook URL',
          description:
            'Marks the device online, like /device/heartbeat; any body is accepted, so an app’s periodic ping can point here. A JSON object or a form may carry telemetry from the app’s template (`battery` as 85 or "85%", `charging`, `network`, `appVersion`; docs/forwarders.md "Phone health"): a battery out of 0..100 is 400 naming it (the device still seen), text it cannot read is left out.',
          params: [hookSecret],
          ok: [204, 'Recorded.'], errors: [400, 401, 403, 429],
        }),
      },
      '/session': {
        post: operation({
          id: 'signIn', tag: 'Session', auth: 'public', summary: 'Sign in to the dashboard',
          description:
            'Checks a dashboard user’s email and password and answers 204 with `Set-Cookie`: an HttpOnly, SameSite=Strict session cookie (Secure unless the service is plain http on localhost), ending 12 hours after its last request and 7 days after sign-in at most. A second cookie, the device cookie (HttpOnly, SameSite=Strict, 180 days), marks a browser where this user signed in. A wrong password, a wrong `totp` and an unknown email are the same 401 `unauthorized`; a user with two-factor on whose password is right and who sent no `totp` (the authenticator’s current code, or a recovery code; each accepted once) is 401 `totp_required`; a browser request from another site’s page (its Origin) is 403 forbidden. After 10 failures in 15 minutes for one email from one address, or 100 from one address, 429 with `Retry-After` for that email from that address; failures elsewhere never refuse a browser holding the user’s device cookie (it has its own 10). Requests the cookie authenticates must carry the header `x-graphql-yoga-csrf` (any value) on GraphQL, and on REST on anything but GET.',
          body: [signInInput, { email: 'owner@shop.example.com', password: 'correct horse battery' }],
          ok: [204, 'Signed in: the session cookie is set.'], errors: [400, 401, 403, 413, 429],
        }),
        delete: operation({
          id: 'signOut', tag: 'Session', auth: 'public', summary: 'Sign out of the dashboard',
          description: 'Ends the session of the request’s cookie (if any) and clears the cookie; 204 either way.',
          ok: [204, 'Signed out: the cookie is cleared.'], errors: [429],
        }),
      },
      '/session/password': {
        post: operation({
          id: 'setPassword', tag: 'Session', auth: 'public', summary: 'Set a password with a one-time link',
          description:
            'The dashboard’s set-password page posts the `token` of its link (from `merchant user add`, `inviteUser` or `resetUserPassword`: one use, 24 hours) and the new password (10 characters at least). A used, expired or unknown token is 400 naming `token`; a short password 400 naming `password`. Every other session of the user ends.',
          body: [setPasswordInput, { token: 'q9mJ3v0c6Yh1cP4m2yXbq3Zk7wT0aN5dLr8sVf2eHgU', password: 'correct horse battery' }],
          ok: [204, 'The password is set.'], errors: [400, 403, 413, 429],
        }),
      },
      '/session/reset': {
        post: operation({
          id: 'requestPasswordReset', tag: 'Session', auth: 'public', summary: 'Email a set-password link for a forgotten password',
          description:
            'Answers 204 for every well-formed email, known or not (a malformed one is 400 naming `email`). When the service has mail set up (SMTP_URL, MAIL_FROM), a known user gets an email, Persian and English, with a one-time link to the set-password page (`POST /session/password`), good for one hour; links issued before it stop working, and using it ends every session of the user. At most 3 mails per user an hour (more requests are answered alike and send nothing). A browser request from another site’s page is 403.',
          body: [resetInput, { email: 'owner@shop.example.com' }],
          ok: [204, 'Accepted (whether or not the email is a user’s).'], errors: [400, 403, 413, 429],
        }),
        get: operation({
          id: 'getPasswordResetOptions', tag: 'Session', auth: 'public', summary: 'Whether a forgotten password can be reset by email',
          description: '`byEmail` is true when the service sends reset mail; false when it has no mail set up: the merchant’s owner (an invitation link) or the operator (CLI `merchant user reset`) then gives a new link. GraphQL: `passwordResetByEmail`.',
          ok: [200, 'What the login page offers.', { type: 'object', required: ['byEmail'], properties: { byEmail: { type: 'boolean' } }, additionalProperties: false }, { byEmail: true }],
          errors: [429],
        }),
      },
      '/device/heartbeat': {
        post: operation({
          id: 'postHeartbeat', tag: 'Device', auth: 'device', summary: 'Say the phone is online',
          description:
            'Marks the device online. Cards on a device silent for 5 minutes take no new payments. The body may carry the phone’s telemetry (all optional; GraphQL `Device.battery`, `charging`, `network`, `appVersion`, `health`): a field out of range is 400 naming it, and the device is still marked seen.',
          body: [telemetryInput, { battery: 64, charging: false, network: 'wifi', appVersion: '2.4.1' }], bodyOptional: true,
          ok: [204, 'Recorded.'], errors: [400, 401, 403, 429],
        }),
      },
      ...exportPaths,
    },
  };
}

