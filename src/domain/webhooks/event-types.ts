import { EVENT_TYPES as PAYMENT_EVENT_TYPES, FINAL_EVENT_TYPES } from '../payments/types.js';

export const DEVICE_EVENT_TYPES = ['device.offline', 'device.online'] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** A deposit that needs the merchant's decision (opt-in, like the device events). */
export const MESSAGE_EVENT_TYPES = ['bank_message.needs_review'] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

/** Every event an endpoint can opt into; the migration's CHECK on webhook_endpoints.events lists the same. */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...MESSAGE_EVENT_TYPES, ...DEVICE_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * What an endpoint receives unless its merchant chose: the payment's final states and its refunds.
 * The attention events (payment.review_required, bank_message.needs_review) and the device events
 * are opt-in.
 */
export const DEFAULT_ENDPOINT_EVENTS: readonly WebhookEventType[] = [...FINAL_EVENT_TYPES, 'payment.refunded'];

export function subscribes(endpoint: { events: string[] }, type: string): boolean {
  return endpoint.events.includes(type);
}
