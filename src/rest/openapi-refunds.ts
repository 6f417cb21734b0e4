import { refundInput } from '../domain/refunds/refunds.js';
import { errors } from './openapi-errors.js';
import { idempotencyKeyHeader } from './openapi-schemas.js';

/** The refunds' part of the OpenAPI document (src/rest/openapi.ts spreads it in). */

type Schema = Record<string, unknown>;

const REFUND_EXAMPLE = {
  id: '8c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
  paymentId: '3f0c7f4e-8a61-4d2b-9a51-2f4f1c1b7e10',
  bankMessageId: '5b6c7d8e-9f01-4a23-8b45-67c89d0e1f2a',
  amount: '500000',
  destinationCard: '************7893',
  destinationSheba: null,
  reference: 'TRX-88123',
  note: 'one book returned',
  createdAt: '2026-11-21T09:10:00.000Z',
};

export const refundSchema: Schema = {
  type: 'object',
  description: 'A refund the merchant paid back from their bank, recorded here (the gateway moves no money).',
  additionalProperties: false,
  required: Object.keys(REFUND_EXAMPLE),
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The refund UUID.' },
    paymentId: { type: ['string', 'null'], format: 'uuid', description: 'The payment refunded.' },
    bankMessageId: { type: ['string', 'null'], format: 'uuid', description: 'The deposit refunded (the payment’s confirming message, when it has one).' },
    amount: { type: 'string', pattern: '^[0-9]+$', description: 'Rials paid back.' },
    destinationCard: { type: ['string', 'null'], description: 'The card paid back to, masked to its last four digits.' },
    destinationSheba: { type: ['string', 'null'], description: 'The account (sheba) paid back to.' },
    reference: { type: ['string', 'null'], description: 'The bank’s reference of the transfer back.' },
    note: { type: ['string', 'null'], description: 'Your note.' },
    createdAt: { type: 'string', format: 'date-time', description: 'When it was recorded.' },
  },
};

const paymentId = { name: 'id', in: 'path', required: true, description: 'The payment UUID.', schema: { type: 'string', format: 'uuid' }, example: REFUND_EXAMPLE.paymentId };
const SECURITY = [{ projectKey: [] }, { merchantKey: [] }];

export function refundPaths(jsonSchema: (s: typeof refundInput) => Schema) {
  return {
    '/payments/{id}/refunds': {
      post: {
        operationId: 'recordRefund',
        tags: ['Payments'],
        summary: 'Record a refund',
        description:
          'Records money you paid back from your bank for a confirmed payment (else 409 `invalid_state`). The refunds of a payment never sum above its `amountReceived` (409 `refund_exceeds_payment`, `details.refundable`), also under concurrent requests. `destinationCard` (16 digits, Luhn-checked; only its last 4 are kept) or `destinationSheba` (IR + 24 digits, ISO 13616 check digits). The payment stays confirmed; fees are not returned; `payment.refunded` is sent. A project key (its project) or the merchant key.',
        security: SECURITY,
        parameters: [paymentId, idempotencyKeyHeader('a retried refund is recorded once')],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(refundInput), example: { amount: '500000', destinationCard: '6037991234567893', reference: 'TRX-88123', note: 'one book returned' } } } },
        responses: { 201: { description: 'The refund recorded.', content: { 'application/json': { schema: refundSchema, example: REFUND_EXAMPLE } } }, ...errors(400, 401, 403, 404, 409, 413, 429) },
      },
      get: {
        operationId: 'listRefunds',
        tags: ['Payments'],
        summary: 'List a payment’s refunds',
        description: 'Oldest first. A project key (its project) or the merchant key.',
        security: SECURITY,
        parameters: [paymentId],
        responses: {
          200: {
            description: 'The refunds.',
            content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: ['items'], properties: { items: { type: 'array', items: refundSchema } } }, example: { items: [REFUND_EXAMPLE] } } },
          },
          ...errors(401, 403, 404, 429),
        },
      },
    },
  };
}
