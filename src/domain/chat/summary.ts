import { dayKey, jalaliOfWall, tehranDayStart, tehranWall } from '../calendar/tehran-calendar.js';
import type { Deps } from '../deps.js';
import { faDigits, toman } from './format.js';
import { DAILY_SUMMARY } from './kinds.js';
import { queueChatMessage } from './send.js';
import { merchantDay } from './store/links.js';

/**
 * The day's summary (23:00 Tehran) to every chat that takes `daily.summary`: its merchant's live
 * payments confirmed since the Tehran day began (count and toman), what waits for a decision now,
 * and what is still pending. Once per chat per Jalali day (`chat_links.summary_day`, claimed in the
 * transaction that queues the message, for every link of that chat of the merchant: a group linked
 * by several users is told once), however often the job runs. Returns how many were queued.
 */
export async function sendDailySummaries(deps: Deps, now: Date): Promise<number> {
  const day = jalaliOfWall(tehranWall(now));
  const key = dayKey(day);
  const from = tehranDayStart(day);
  const links = await deps.prisma.chatLink.findMany({
    where: { events: { has: DAILY_SUMMARY }, OR: [{ summaryDay: null }, { summaryDay: { not: key } }] },
    include: { user: { select: { merchantId: true } } },
  });
  const texts = new Map<string, string>();
  let queued = 0;
  for (const link of links) {
    const merchantId = link.user.merchantId;
    let text = texts.get(merchantId);
    if (!text) {
      const r = await merchantDay(deps.prisma, merchantId, from);
      const waiting = Number(r.review_payments) + Number(r.review_messages);
      text =
        `📊 خلاصهٔ امروز، ${faDigits(key.replaceAll('-', '/'))}\n` +
        `پرداخت‌های تأییدشده: ${faDigits(String(r.confirmed_count))} — ${toman(r.confirmed_sum ?? 0n)}\n` +
        `منتظر تصمیم شما: ${faDigits(waiting)}\n` +
        `در انتظار پرداخت: ${faDigits(String(r.pending))}\n\n${deps.config.publicBaseUrl}/dashboard`;
      texts.set(merchantId, text);
    }
    const sent = await deps.prisma.$transaction(async (tx) => {
      const claimed = await tx.chatLink.updateMany({ where: { id: link.id, OR: [{ summaryDay: null }, { summaryDay: { not: key } }] }, data: { summaryDay: key } });
      if (claimed.count === 0) return false;
      // A group linked by several users of this merchant is told once: its other links count as told.
      await tx.chatLink.updateMany({
        where: { platform: link.platform, chatId: link.chatId, user: { merchantId }, OR: [{ summaryDay: null }, { summaryDay: { not: key } }] },
        data: { summaryDay: key },
      });
      await queueChatMessage(tx, deps.jobs, { linkId: link.id, text: text! });
      return true;
    });
    if (sent) queued++;
  }
  // The once-per-chat marks of events older than any job that could still run for them.
  await deps.prisma.chatNotice.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - NOTICE_MARKS_DAYS * 86_400_000) } } });
  return queued;
}

/** How long `chat_notices` keeps an event's marks (a `chat-notify` job is retried within minutes). */
const NOTICE_MARKS_DAYS = 7;
