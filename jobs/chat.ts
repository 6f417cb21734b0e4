import type { Deps } from '../src/domain/deps.js';
import { fanOutNotice } from '../src/domain/chat/fan-out.js';
import { deliverChatMessage } from '../src/domain/chat/send.js';
import { sendDailySummaries } from '../src/domain/chat/summary.js';
import { checkedJob, oneAtATime } from '../src/queue/job-queue.js';

/**
 * An event for the linked chats (src/domain/chat/notice.ts queued it with the event): rendered
 * once and fanned out as one `chat-send` per chat, in one transaction.
 */
export const chatNotifyJob = checkedJob({
  name: 'chat-notify',
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  run: async (deps: Deps, data) => {
    const sent = await fanOutNotice(deps, data);
    deps.log.debug({ ...data, sent }, 'chat notice fanned out');
  },
});

/**
 * One try of one message to one chat (src/domain/chat/send.ts): the send slots (1 a second per
 * chat, 25 per bot, across processes), 429's retry_after, 403 unlinks; the handler queues its own
 * next try (10 in all), so pg-boss retries only a try cut off by a crash.
 */
export const chatSendJob = checkedJob({
  name: 'chat-send',
  options: { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 },
  run: async (deps: Deps, data) => {
    const outcome = await deliverChatMessage(deps, data);
    deps.log.debug({ linkId: data.linkId, attempt: data.attempt, outcome }, 'chat message');
  },
});

/** 23:00 Tehran (19:30 UTC; Iran keeps no daylight saving since 2022): the day's summary to every chat that takes it. */
export const chatDailySummaryJob = checkedJob({
  name: 'chat-daily-summary',
  options: { retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  cron: '30 19 * * *',
  plan: oneAtATime,
  run: async (deps: Deps) => {
    const sent = await sendDailySummaries(deps, new Date());
    deps.log.info({ sent }, 'chat daily summary queued');
  },
});
