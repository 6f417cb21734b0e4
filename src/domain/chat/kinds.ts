/**
 * Chat notifications (docs/notifications.md): the two platforms and
 * the events a linked chat can be told of. A notification's type is a webhook event type, so new
 * event types reach the chats as soon as they are emitted where webhooks are (`queueChatNotice`).
 */
export const CHAT_PLATFORMS = ['TELEGRAM', 'BALE'] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

/** The events sent where the webhooks' are emitted (src/domain/chat/notice.ts). */
export const CHAT_EVENT_TYPES = [
  'payment.confirmed',
  'payment.review_required',
  'bank_message.needs_review',
  'card.balance_gap',
  'device.offline',
  'device.silent',
  'device.low_battery',
] as const;

/** The daily summary, 23:00 Tehran. */
export const DAILY_SUMMARY = 'daily.summary';

/** Every choice of a link; a new link gets all of them. */
export const CHAT_NOTIFICATIONS = [...CHAT_EVENT_TYPES, DAILY_SUMMARY] as const;
export type ChatNotification = (typeof CHAT_NOTIFICATIONS)[number];

export function isChatEvent(type: string): type is (typeof CHAT_EVENT_TYPES)[number] {
  return (CHAT_EVENT_TYPES as readonly string[]).includes(type);
}

/** The door a press on a platform's button is audited with (`AuditEvent.via`). */
export const viaOf = (platform: ChatPlatform) => (platform === 'TELEGRAM' ? 'telegram' : 'bale') as 'telegram' | 'bale';

export const PLATFORM_NAMES: Record<ChatPlatform, string> = { TELEGRAM: 'تلگرام', BALE: 'بله' };
