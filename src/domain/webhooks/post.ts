import type { Prisma } from '../../generated/prisma/client.js';
import { jsonColumn } from '../../ordered-json.js';
import type { Deps } from '../deps.js';
import { postWebhook, type SendResult } from './http-sender.js';
import { signatureHeader } from './signature.js';

/** A delivery with what an attempt needs: its endpoint and the event it carries (payment or device). */
export const DELIVERY_INCLUDE = { endpoint: true, event: true, deviceEvent: true } as const;
export type LoadedDelivery = Prisma.WebhookDeliveryGetPayload<{ include: typeof DELIVERY_INCLUDE }>;

function samplePayload(deliveryId: string) {
  return {
    event: 'payment.confirmed',
    paymentId: '00000000-0000-4000-8000-000000000000',
    status: 'confirmed',
    orderId: 'test-order',
    amountRequested: '100000',
    amountFinal: '100120',
    confirmedAt: new Date().toISOString(),
    confirmationSource: 'auto_sms',
    sandbox: true,
    metadata: { test: true, deliveryId },
    reason: null,
  };
}

/** Signs the delivery's body for this attempt (its own `sentAt` and `t`) and POSTs it once. */
export async function postDelivery(deps: Deps, delivery: LoadedDelivery): Promise<SendResult & { startedAt: Date }> {
  const startedAt = new Date();
  const stored = delivery.event?.payload ?? delivery.deviceEvent?.payload;
  // Parsed from its text in order (src/ordered-json.ts): the metadata in it keeps the merchant's key order.
  const payload = stored ? (jsonColumn(stored) as Record<string, unknown>) : samplePayload(delivery.id);
  const body = JSON.stringify({ ...payload, deliveryId: delivery.id, sentAt: startedAt.toISOString() });
  const { endpoint } = delivery;
  const secrets = [deps.secrets.open(endpoint.secretCiphertext)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > startedAt) {
    secrets.push(deps.secrets.open(endpoint.previousSecretCiphertext));
  }
  const result = await postWebhook({
    url: endpoint.url,
    body,
    allowPrivate: deps.config.webhookAllowPrivate,
    lookup: deps.lookup,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'c2c-gateway-webhooks/1',
      'x-service-event': String(payload.event),
      'x-service-delivery': delivery.id,
      'x-service-signature': signatureHeader(secrets, Math.floor(startedAt.getTime() / 1000), body),
    },
  });
  return { ...result, startedAt };
}
