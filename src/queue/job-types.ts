import { z } from 'zod';

/**
 * Every job kind and the payload its handler reads (graphile-worker's typed task list): `send` is
 * typed from this table and `checkedJob` parses with it, so a sender and its handler cannot
 * disagree. Jobs outlive deploys: a schema may only widen (a new field optional), never narrow.
 * A kind retired (end-late-window, expire-payment: now sweeps) leaves its old jobs unworked, which
 * is safe only because its sweep does the same work from the rows; its queue is deleted by the
 * first worker of a release after the one that stopped sending it (`RETIRED_QUEUES`).
 */
export const jobPayloads = {
  /** One attempt of a webhook delivery; jobs sent before `attempt` existed attempt whatever is next. */
  'deliver-webhook': z.object({ deliveryId: z.uuid(), attempt: z.int().min(1).optional() }),
  'process-bank-message': z.object({ messageId: z.uuid() }),
  // Periodic jobs (cron, at start, or queued by their own last run) read nothing from their payload.
  'payment-sweep': z.looseObject({}),
  'device-health': z.looseObject({}),
  'prune-idempotency-keys': z.looseObject({}),
  retention: z.looseObject({}),
  /** Chat notifications (src/domain/chat/): an event told to the linked chats, one message to one chat, the daily summary. */
  'chat-notify': z.object({ eventId: z.uuid().optional(), deviceEventId: z.uuid().optional() }),
  'chat-send': z.object({
    linkId: z.uuid(),
    text: z.string(),
    promptId: z.uuid().optional(),
    attempt: z.int().min(1).default(1),
    slotReserved: z.boolean().optional(),
  }),
  'chat-daily-summary': z.looseObject({}),
  /** A password-reset mail: the user and the link, sealed with the service's secret key. */
  'send-password-reset': z.object({ userId: z.uuid(), sealedUrl: z.string() }),
} as const;

export type JobName = keyof typeof jobPayloads;

/**
 * Queues no release that may still run beside this one sends to (the releases before the expiry
 * sweep and the late-window sweep were the last to send `expire-payment` and `end-late-window`, and
 * a release has shipped after each since): a worker deletes them, with any jobs left in them, when
 * it starts.
 */
export const RETIRED_QUEUES = ['expire-payment', 'end-late-window'] as const;

/** What a sender passes for job `K`. */
export type JobPayload<K extends JobName> = z.input<(typeof jobPayloads)[K]>;

/** What the handler of job `K` receives once its payload has been checked. */
export type JobData<K extends JobName> = z.output<(typeof jobPayloads)[K]>;
