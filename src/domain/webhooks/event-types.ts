import { EVENT_TYPES as PAYMENT_EVENT_TYPES, FINAL_EVENT_TYPES } from '../payments/types.js';

export const DEVICE_EVENT_TYPES = ['device.offline', 'device.online', 'device.low_battery', 'device.silent'] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** A deposit that needs the merchant's decision (opt-in, like the device events). */
export const MESSAGE_EVENT_TYPES = ['bank_message.needs_review'] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

/** Money whose SMS never came, found on a card's balance chain (opt-in). */
export const GAP_EVENT_TYPES = ['card.balance_gap'] as const;
export type GapEventType = (typeof GAP_EVENT_TYPES)[number];

/**
 * Every event an endpoint can receive: the one list the GraphQL descriptions, the endpoint's
 * validation and the dashboard's labels (its generated `WebhookEventType`) derive from. The
 * migrations' CHECKs on webhook_endpoints.events and events.type state it again;
 * test/webhooks/event-types.test.ts holds them equal.
 */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...MESSAGE_EVENT_TYPES, ...GAP_EVENT_TYPES, ...DEVICE_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * What an endpoint receives unless its merchant chose: the payment's final states and its refunds.
 * The attention events (payment.review_required, bank_message.needs_review) and the device events
 * are opt-in.
 */
export const DEFAULT_ENDPOINT_EVENTS: readonly WebhookEventType[] = [...FINAL_EVENT_TYPES, 'payment.refunded'];

/** The event types an endpoint receives only when its merchant lists them. */
export const OPT_IN_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => !DEFAULT_ENDPOINT_EVENTS.includes(type));

export function subscribes(endpoint: { events: string[] }, type: string): boolean {
  return endpoint.events.includes(type);
}
