import { errorCatalog } from '../errors.js';
import { CURRENCIES } from '../domain/banking/currency.js';
import { PAYMENT_STATUSES } from '../domain/payments/types.js';

/** Response schemas and examples of the OpenAPI document (request schemas come from the domain's zod). */

type Schema = Record<string, unknown>;

const described = (description: string, schema: Schema): Schema => ({ ...schema, description });
const str = (description: string, extra: Schema = {}) => described(description, { type: 'string', ...extra });
const nstr = (description: string, extra: Schema = {}) => described(description, { type: ['string', 'null'], ...extra });
const bool = (description: string) => described(description, { type: 'boolean' });
const int = (description: string) => described(description, { type: 'integer' });
const digits = (description: string) => str(description, { pattern: '^[0-9]+$' });
const at = (description: string) => str(description, { format: 'date-time' });
const nat = (description: string) => nstr(description, { format: 'date-time' });
const uuid = (description: string) => str(description, { format: 'uuid' });

/** An object whose every property is present (null when unset), as every answer of this API is. */
export const obj = (description: string, properties: Record<string, Schema>): Schema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
});

const status = described('The payment’s state.', { type: 'string', enum: [...PAYMENT_STATUSES] });
const currency = (description: string) => str(description, { enum: [...CURRENCIES] });

/**
 * The `Idempotency-Key` header of every POST that changes state (docs/integration.md "Idempotency"; one
 * mechanism, src/domain/payments/idempotency.ts): `what` says what a retry is kept from doing twice.
 */
export const idempotencyKeyHeader = (what: string): Schema => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `Makes a retry safe: ${what}. Kept 24 h in the caller’s key space (a project key’s project, the merchant key’s merchant, a dashboard user’s own; a checkout’s payment; a link’s payer address). ` +
    'The same key with the same JSON body (key order and spacing aside) on the same route and target replays the first success byte for byte, status included; with another body, route or target → 409 `idempotency_conflict`, as is a second request while the first still runs. Errors are not kept: a retry after one runs again.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  example: '5f1c9a0e-7b2d-4c61-9e38-0a4b6d2f1c77',
});

export const AMOUNT_INPUT: Schema = {
  description: 'A whole amount in the request’s `currency` (rials unless it is IRT, toman), as an integer or a string of digits (Persian and Arabic-Indic digits accepted).',
  oneOf: [
    { type: 'integer', minimum: 0, examples: [1500000] },
    { type: 'string', pattern: '^[0-9۰-۹٠-٩]+$', examples: ['1500000'] },
  ],
};

const paymentFields = {
  id: uuid('The payment UUID; `service_ref` on the callback.'),
  status,
  amountRequested: digits('The requested amount, in rials.'),
  amountFinal: digits('The exact amount to transfer, in rials: amountRequested + code.'),
  code: int('Rials added to make the amount unique (a multiple of 10).'),
  amountMode: str('How the final amount is made.', { examples: ['unique_code'] }),
  currency: currency('The unit the amounts were sent in at creation: IRR (rials) or IRT (toman). Amounts are returned in rials.'),
  orderId: nstr('Your order identifier.'),
  description: nstr('Shown to the payer.'),
  token: str('The payment token (43 URL-safe characters): addresses the checkout; `service_token` on the callback.'),
  reviewRequired: bool('True when a deposit needs your decision.'),
  reviewReason: nstr('amount_without_code, ambiguous_deposit, payer_reported_no_deposit, or an evidence check its deposit failed: unknown_sender, balance_mismatch, bank_mismatch, unrecognized_format.'),
  confirmationSource: nstr('auto_sms or manual.'),
  confirmedAt: nat('When it was confirmed.'),
  verifiedAt: nat('When verify first saw it confirmed.'),
  verifyCount: int('How many times verify was called.'),
  expiresAt: at('When a pending payment expires.'),
  payerPhone: nstr('The payer’s phone.'),
  payerCardLast4: nstr('Last four digits of the payer’s card.'),
  payerTrackingNumber: nstr('The tracking number the payer reported.'),
  payerReportedPaidAt: nat('When the payer reported paying.'),
  bankMessageId: nstr('The deposit (bank message UUID) that confirmed it: matched, reviewed or attached by hand.', { format: 'uuid' }),
  amountReceived: described('What came in, in rials: the deposit; amountFinal when confirmed with no message; null until confirmed.', { type: ['string', 'null'], pattern: '^[0-9]+$' }),
  confirmedLate: bool('Confirmed by the merchant after its late window had ended.'),
  manualNote: nstr('Your note on a manual confirmation or attach.'),
  refundedAmount: digits('The sum of its refunds, in rials ("0" by default); the refunds: GET /payments/{id}/refunds.'),
  metadata: described('Your metadata, exactly as sent.', { type: ['object', 'null'] }),
  sandbox: bool('True for a sandbox payment.'),
  createdAt: at('When it was created.'),
  updatedAt: at('When it last changed.'),
};

/** Examples of the success answers; the Redocly test checks them against the schemas. */
const paymentExample = {
  id: '3f0c7f4e-8a61-4d2b-9a51-2f4f1c1b7e10',
  status: 'pending',
  amountRequested: '1500000',
  amountFinal: '1500370',
  code: 370,
  amountMode: 'unique_code',
  currency: 'IRR',
  orderId: 'order-1001',
  description: 'Two books',
  token: 'q9mJ3v0c6Yh1cP4m2yXbq3Zk7wT0aN5dLr8sVf2eHgU',
  reviewRequired: false,
  reviewReason: null,
  confirmationSource: null,
  confirmedAt: null,
  verifiedAt: null,
  verifyCount: 0,
  expiresAt: '2026-11-21T08:58:00.000Z',
  payerPhone: null,
  payerCardLast4: null,
  payerTrackingNumber: null,
  payerReportedPaidAt: null,
  bankMessageId: null,
  amountReceived: null,
  confirmedLate: false,
  manualNote: null,
  refundedAmount: '0',
  metadata: { customerId: 42 },
  sandbox: true,
  createdAt: '2026-11-21T08:43:00.000Z',
  updatedAt: '2026-11-21T08:43:00.000Z',
};

const checkoutUrl = str('The hosted checkout page: send the payer here.', { format: 'uri' });
const card = obj('The card to transfer to; null when expired, canceled or rejected.', {
  bankCode: str('The bank’s code.'),
  bankName: str('The bank’s name.'),
  cardNumber: str('The 16-digit card number.'),
  holderName: str('The card holder’s name.'),
});

export const schemas: Record<string, Schema> = {
  Payment: obj('A payment record.', paymentFields),
  CreatedPayment: obj('A payment record with the checkout URL to send the payer to.', { ...paymentFields, checkoutUrl }),
  PaymentPage: obj('One page of payments, newest first.', {
    items: described('The payments of this page.', { type: 'array', items: { $ref: '#/components/schemas/Payment' } }),
    page: int('The page number, from 1.'),
    pageSize: int('Items per page.'),
    total: int('How many payments match, over all pages.'),
  }),
  VerifyResult: obj('Fulfil the order only when verified is true.', {
    id: uuid('The payment UUID.'),
    status,
    verified: bool('True exactly when the payment is confirmed.'),
    alreadyVerified: bool('True when an earlier verify already saw it confirmed.'),
    orderId: nstr('Your order identifier.'),
    amountRequested: digits('The requested amount, in rials.'),
    amountFinal: digits('The amount transferred, in rials.'),
    confirmedAt: nat('When it was confirmed.'),
    confirmationSource: nstr('auto_sms or manual.'),
    payerCardLast4: nstr('Last four digits of the payer’s card.'),
    sandbox: bool('True for a sandbox payment.'),
  }),
  SimulationResult: obj('What the matching engine made of the simulated deposit.', {
    simulatedAmount: digits('The simulated deposit, in rials.'),
    bankMessage: obj('The simulated bank message.', {
      id: uuid('The bank message UUID.'),
      status: str('matched, needs_review, unmatched, …', { examples: ['matched'] }),
      statusReason: nstr('Why, in words.'),
    }),
    payment: { $ref: '#/components/schemas/Payment' },
  }),
  CheckoutView: obj('What the payer sees, by payment token.', {
    token: str('The payment token.'),
    paymentId: uuid('The payment UUID (`service_ref`).'),
    status,
    amountRequested: digits('The requested amount, in rials.'),
    amountFinal: digits('The exact amount to transfer, in rials.'),
    amountMode: str('unique_code.'),
    currency: currency('The unit the shop sent the amount in; the page shows it first, the other unit beside it.'),
    displayUnit: str('The display unit beside rials.', { examples: ['toman'] }),
    autoConfirm: bool('Whether a matching deposit confirms automatically.'),
    description: nstr('The merchant’s description.'),
    orderId: nstr('The merchant’s order identifier.'),
    expiresAt: at('When the pending payment expires.'),
    remainingSeconds: int('Seconds until expiry; 0 once not pending.'),
    lateUntil: at('Until when a late deposit still confirms.'),
    callbackUrl: nstr('Where the payer is sent when final; null for link payments without one.'),
    payerReportedPaidAt: nat('When the payer reported paying.'),
    confirmedAt: nat('When it was confirmed.'),
    receiptCode: nstr('Eight characters the payer can quote, once confirmed.'),
    sandbox: bool('True for a sandbox payment.'),
    card: { ...card, type: ['object', 'null'] },
    project: obj('The shop’s branding.', {
      displayName: str('The shop’s name.'),
      logoUrl: nstr('Logo URL.'),
      color: nstr('Accent colour #rrggbb.'),
      note: nstr('A note for the payer.'),
      supportPhone: nstr('A support phone.'),
    }),
    link: {
      ...obj('The payment link the payment came from; null otherwise.', { slug: str('The link’s slug.'), title: str('The link’s title.') }),
      type: ['object', 'null'],
    },
  }),
  PaymentLink: obj('A payment link as payers see it.', {
    slug: str('The link’s slug.'),
    title: str('The title.'),
    description: nstr('The description.'),
    amount: nstr('The fixed amount in rials; null when the payer chooses.', { pattern: '^[0-9]+$' }),
    minAmount: nstr('The smallest amount a payer may choose.', { pattern: '^[0-9]+$' }),
    maxAmount: nstr('The largest amount a payer may choose.', { pattern: '^[0-9]+$' }),
    project: obj('The shop’s branding.', { displayName: str('The shop’s name.'), logoUrl: nstr('Logo URL.'), color: nstr('Accent colour.') }),
  }),
  LinkPayment: obj('A payment started from a link.', {
    token: str('The payment token.'),
    checkoutUrl,
    amountFinal: digits('The exact amount to transfer, in rials.'),
    expiresAt: at('When the payment expires.'),
  }),
  BankMessageOutcome: obj('The stored message and what the engine made of it.', {
    id: uuid('The bank message UUID.'),
    status: str('matched, needs_review, unmatched, ignored, unparsed or duplicate.'),
  }),
  BankMessageBatchOutcome: obj('Each message of a batch, in the order sent: its stored id and what the engine made of it.', {
    items: described('One per message sent, in the same order.', { type: 'array', items: { $ref: '#/components/schemas/BankMessageOutcome' } }),
  }),
  Error: obj('The error envelope of every failed request. `details` also sits at the top level, for clients that read it there.', {
      error: obj('What went wrong.', {
        code: described('A stable machine-readable code.', { type: 'string', enum: Object.keys(errorCatalog) }),
        message: str('A sentence for people.'),
        details: described('More about it, e.g. fields for invalid_request, reasons for no_card_available.', { type: 'object' }),
      }),
    details: described('The same object as error.details.', { type: 'object' }),
  }),
};

/** An error answer: the envelope, with one example per code the route can answer with that status. */
export function errorExample(code: keyof typeof errorCatalog, message: string, details: Record<string, unknown> = {}) {
  return { value: { error: { code, message, details }, details } };
}

const CHECKOUT = 'https://pay.example.com/pay/q9mJ3v0c6Yh1cP4m2yXbq3Zk7wT0aN5dLr8sVf2eHgU';
const confirmed = { ...paymentExample, status: 'confirmed', confirmationSource: 'auto_sms', confirmedAt: '2026-11-21T08:45:12.000Z', payerCardLast4: '1234' };

export const EXAMPLES = {
  payment: paymentExample,
  createdPayment: { ...paymentExample, checkoutUrl: CHECKOUT },
  paymentPage: { items: [paymentExample], page: 1, pageSize: 20, total: 1 },
  verifyResult: {
    id: paymentExample.id, status: 'confirmed', verified: true, alreadyVerified: false, orderId: 'order-1001', amountRequested: '1500000',
    amountFinal: '1500370', confirmedAt: '2026-11-21T08:45:12.000Z', confirmationSource: 'auto_sms', payerCardLast4: '1234', sandbox: true,
  },
  rejected: { ...paymentExample, status: 'rejected' },
  simulation: {
    simulatedAmount: '1500370',
    bankMessage: { id: '6b1d3a9e-2f0c-4c55-8f0e-0c2d1f7a9b31', status: 'matched', statusReason: 'deposit matched payment order-1001' },
    payment: confirmed,
  },
  checkoutView: {
    token: paymentExample.token, paymentId: paymentExample.id, status: 'pending', amountRequested: '1500000', amountFinal: '1500370',
    amountMode: 'unique_code', currency: 'IRR', displayUnit: 'toman', autoConfirm: true, description: 'Two books', orderId: 'order-1001',
    expiresAt: '2026-11-21T08:58:00.000Z', remainingSeconds: 840, lateUntil: '2026-11-21T09:58:00.000Z',
    callbackUrl: 'https://shop.example.com/return', payerReportedPaidAt: null, confirmedAt: null, receiptCode: null, sandbox: true,
    card: { bankCode: 'mellat', bankName: 'بانک ملت', cardNumber: '6104337812345678', holderName: 'Acme' },
    project: { displayName: 'Acme', logoUrl: null, color: '#0a7d5a', note: null, supportPhone: null },
    link: null,
  },
  paymentLink: {
    slug: 'donate', title: 'Donation', description: null, amount: null, minAmount: '10000', maxAmount: '50000000',
    project: { displayName: 'Acme', logoUrl: null, color: '#0a7d5a' },
  },
  linkPayment: { token: paymentExample.token, checkoutUrl: CHECKOUT, amountFinal: '250370', expiresAt: '2026-11-21T08:58:00.000Z' },
  bankMessageOutcome: { id: '6b1d3a9e-2f0c-4c55-8f0e-0c2d1f7a9b31', status: 'matched' },
  bankMessageBatchOutcome: {
    items: [
      { id: '6b1d3a9e-2f0c-4c55-8f0e-0c2d1f7a9b31', status: 'matched' },
      { id: '0f3c2b1a-9d8e-4f7a-b6c5-d4e3f2a1b0c9', status: 'duplicate' },
    ],
  },
};
