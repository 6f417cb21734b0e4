import type { Deps } from '../src/domain/deps.js';
import type { JobDefinition } from '../src/queue/job-queue.js';
import type { JobName } from '../src/queue/job-types.js';
import { chatDailySummaryJob, chatNotifyJob, chatSendJob } from './chat.js';
import { deliverWebhookJob } from './deliver-webhook.js';
import { deviceHealthJob } from './device-health.js';
import { paymentSweepJob } from './payment-sweep.js';
import { processBankMessageJob } from './process-bank-message.js';
import { pruneIdempotencyKeys } from './prune-idempotency-keys.js';
import { retentionJob } from './retention.js';
import { sendPasswordResetJob } from './send-password-reset.js';

/** One definition per name of `jobPayloads`: a name without one would have no queue, and its sends would be lost. */
const byName: { [K in JobName]: JobDefinition<Deps, K> } = {
  'deliver-webhook': deliverWebhookJob,
  'payment-sweep': paymentSweepJob,
  'process-bank-message': processBankMessageJob,
  'prune-idempotency-keys': pruneIdempotencyKeys,
  retention: retentionJob,
  'device-health': deviceHealthJob,
  'chat-notify': chatNotifyJob,
  'chat-send': chatSendJob,
  'chat-daily-summary': chatDailySummaryJob,
  'send-password-reset': sendPasswordResetJob,
};

/** Every job kind; each queue is created at start-up so that no `send` is ever lost. */
export const jobDefinitions: JobDefinition<Deps>[] = Object.values(byName);
