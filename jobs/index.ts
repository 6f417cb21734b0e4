import type { Deps } from '../src/domain/deps.js';
import type { JobDefinition } from '../src/queue/job-queue.js';
import { deliverWebhookJob } from './deliver-webhook.js';
import { deviceHealthJob } from './device-health.js';
import { endLateWindowJob } from './end-late-window.js';
import { expirePaymentJob } from './expire-payment.js';
import { paymentSweepJob } from './payment-sweep.js';
import { processBankMessageJob } from './process-bank-message.js';
import { pruneIdempotencyKeys } from './prune-idempotency-keys.js';

/** Every job kind; each queue is created at start-up so that no `send` is ever lost. */
export const jobDefinitions: JobDefinition<Deps>[] = [deliverWebhookJob, expirePaymentJob, endLateWindowJob, paymentSweepJob, processBankMessageJob, pruneIdempotencyKeys, deviceHealthJob];
