import { EVENT_TYPES as PAYMENT_EVENT_TYPES } from '../payments/types.js';

export const DEVICE_EVENT_TYPES = ['device.offline', 'device.online'] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** Every event an endpoint can opt into; the migration's CHECK on webhook_endpoints.events lists the same. */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...DEVICE_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an endpoint receives unless its merchant chose: the payment events, as before opt-in existed. */
export const DEFAULT_ENDPOINT_EVENTS: readonly WebhookEventType[] = PAYMENT_EVENT_TYPES;

export function subscribes(endpoint: { events: string[] }, type: string): boolean {
  return endpoint.events.includes(type);
}
