import { z } from 'zod';
import { messageInput } from '../domain/bank-messages/ingest.js';
import { reportInput } from '../domain/checkout/checkout.js';
import { linkPaymentInput } from '../domain/links/public.js';
import { createPaymentSchema } from '../domain/payments/create-payment.js';
import { listPaymentsSchema } from '../domain/payments/queries.js';
import { simulateInput } from '../domain/sandbox/simulate.js';

/** Request schemas come from the same zod schemas the domain validates with, so they cannot drift. */
const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const digits = { type: 'string', pattern: '^[0-9]+$' };
const when = { type: ['string', 'null'], format: 'date-time' };
const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) });

const components = {
  PaymentRecord: obj({
    id: { type: 'string', format: 'uuid' }, status: { enum: ['pending', 'confirmed', 'expired', 'rejected', 'canceled'] },
    amountRequested: digits, amountFinal: digits, code: { type: 'integer' }, amountMode: str, orderId: nstr, description: nstr, token: str,
    reviewRequired: { type: 'boolean' }, reviewReason: nstr, confirmationSource: nstr, confirmedAt: when, verifiedAt: when,
    verifyCount: { type: 'integer' }, expiresAt: { type: 'string', format: 'date-time' }, payerPhone: nstr, payerCardLast4: nstr,
    payerTrackingNumber: nstr, payerReportedPaidAt: when, metadata: { type: ['object', 'null'] }, sandbox: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' },
  }),
  VerifyResult: obj({
    id: str, status: str, verified: { type: 'boolean' }, alreadyVerified: { type: 'boolean' }, orderId: nstr, amountRequested: digits,
    amountFinal: digits, confirmedAt: when, confirmationSource: nstr, payerCardLast4: nstr, sandbox: { type: 'boolean' },
  }),
  CheckoutView: { type: 'object', description: 'SPEC 2.3, plus paymentId and lateUntil.' },
  Error: obj({
    error: obj({ code: str, message: str, details: { type: 'object' } }),
    details: { type: 'object' },
  }),
};

const ref = (name: keyof typeof components) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (status: number, schema: unknown, description = 'OK') => ({ [status]: { description, ...json(schema) } });
const errors = { default: { description: 'Error envelope', ...json(ref('Error')) } };
const op = (summary: string, security: boolean, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  summary,
  ...(security ? { security: [{ bearer: [] }] } : { security: [] }),
  responses: { ...responses, ...errors },
  ...extra,
});
const body = (schema: z.ZodType) => ({ requestBody: { required: true, ...json(jsonSchema(schema)) } });
const pathParam = (name: string, format?: string) => ({ name, in: 'path', required: true, schema: { type: 'string', ...(format ? { format } : {}) } });

export function openApiDocument(publicBaseUrl: string) {
  const list = jsonSchema(listPaymentsSchema) as { properties: Record<string, unknown> };
  return {
    openapi: '3.1.0',
    info: { title: 'Card-to-card payment gateway', version: '1.0.0', description: 'REST adapter of the GraphQL-first API. Errors use the envelope in #/components/schemas/Error.' },
    servers: [{ url: `${publicBaseUrl}/v1` }],
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_live_/sk_test_ project key, or dt_ device token' } } },
    paths: {
      '/payments': {
        post: op('Create a payment', true, ok(201, { allOf: [ref('PaymentRecord'), obj({ checkoutUrl: str })] }, 'Created'), {
          ...body(createPaymentSchema),
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
        }),
        get: op('List payments, newest first', true, ok(200, obj({ items: { type: 'array', items: ref('PaymentRecord') }, page: { type: 'integer' }, pageSize: { type: 'integer' }, total: { type: 'integer' } })), {
          parameters: Object.entries(list.properties).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
        }),
      },
      '/payments/{id}': { get: op('Get a payment', true, ok(200, ref('PaymentRecord')), { parameters: [pathParam('id', 'uuid')] }) },
      '/payments/{id}/verify': { post: op('Verify a payment (idempotent)', true, ok(200, ref('VerifyResult')), { parameters: [pathParam('id', 'uuid')] }) },
      '/payments/{id}/reject': {
        post: op('Reject a pending payment', true, ok(200, ref('PaymentRecord')), { parameters: [pathParam('id', 'uuid')], ...body(z.object({ reason: z.string().min(1).max(300) })) }),
      },
      '/sandbox/deposits': { post: op('Simulate a deposit (sandbox projects)', true, ok(200, obj({ simulatedAmount: digits, bankMessage: obj({ id: str, status: str, statusReason: nstr }), payment: ref('PaymentRecord') })), body(simulateInput)) },
      '/checkout/{token}': { get: op('Checkout view (public)', false, ok(200, ref('CheckoutView')), { parameters: [pathParam('token')] }) },
      '/checkout/{token}/report': { post: op('The payer reports the transfer (public)', false, ok(200, ref('CheckoutView')), { parameters: [pathParam('token')], ...body(reportInput) }) },
      '/checkout/{token}/cancel': { post: op('The payer cancels (public)', false, ok(200, ref('CheckoutView')), { parameters: [pathParam('token')] }) },
      '/links/{slug}': { get: op('A payment link (public)', false, ok(200, { type: 'object' }), { parameters: [pathParam('slug')] }) },
      '/links/{slug}/payments': {
        post: op('Start a payment from a link (public)', false, ok(201, obj({ token: str, checkoutUrl: str, amountFinal: digits, expiresAt: str }), 'Created'), { parameters: [pathParam('slug')], ...body(linkPaymentInput) }),
      },
      '/device/messages': { post: op('A device forwards one bank SMS', true, ok(202, obj({ id: str, status: str }), 'Accepted and processed'), body(messageInput)) },
      '/device/heartbeat': { post: op('A device says it is online', true, { 204: { description: 'Recorded' } }) },
    },
  };
}
