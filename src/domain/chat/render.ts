import type { Deps } from '../deps.js';
import { candidatesForMessage, candidatesForPayment } from '../matching/find-candidates.js';
import { faDigits, jalaliTime, toman } from './format.js';

/** A button as rendered: what it does and on what, before its token is made. */
export type ButtonSpec = { action: 'attach' | 'dismiss' | 'dismiss_review' | 'resolve_gap'; label: string; messageId?: string; paymentId?: string; gapId?: string };

/** A notification's text, and when it asks for a decision, its subject and buttons. */
export type Rendered = { text: string; prompt?: { subjectType: string; subjectId: string; buttons: ButtonSpec[] } };

/** What a notification is about: a project event (payments, messages, gaps) or a device event. */
export type NoticeSource = { type: string; payload: Record<string, unknown>; createdAt: Date; projectId?: string; paymentId?: string | null; bankMessageId?: string | null; deviceId?: string };

const REVIEW_REASONS: Record<string, string> = {
  amount_without_code: 'مبلغ واریز بدون کد پرداخت است',
  ambiguous_deposit: 'واریز با بیش از یک پرداخت جور است',
  unknown_sender: 'پیامک از فرستنده‌ای ناشناس آمده است',
  balance_mismatch: 'موجودی کارت با پیامک‌های قبلی نمی‌خواند',
  bank_mismatch: 'پیامک از بانک دیگری است',
  unrecognized_format: 'قالب پیامک شناخته نشد',
  payer_reported_no_deposit: 'پرداخت‌کننده گفته پرداخت کرده ولی واریزی نرسیده است',
};

const reason = (code: unknown) => (typeof code === 'string' ? (REVIEW_REASONS[code] ?? code) : 'نیاز به تصمیم شما');
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const order = (orderId: string | null | undefined) => orderId ?? 'بدون شناسه سفارش';
const testMark = (sandbox: boolean) => (sandbox ? ' (آزمایشی)' : '');

/**
 * The Persian message of an event, as the dashboard would say it: amounts in toman with Persian
 * digits, Jalali Tehran time, the order id, and the dashboard page it is about. Null when what it
 * is about is gone (nothing is sent then).
 */
export async function renderNotice(deps: Deps, n: NoticeSource): Promise<Rendered | null> {
  const base = `${deps.config.publicBaseUrl}/dashboard`;
  const project = n.projectId ? await deps.prisma.project.findUnique({ where: { id: n.projectId }, select: { name: true } }) : null;
  const projectLine = project ? `\nپروژه: ${project.name}` : '';
  switch (n.type) {
    case 'payment.confirmed': {
      const p = n.paymentId ? await deps.prisma.payment.findUnique({ where: { id: n.paymentId } }) : null;
      if (!p) return null;
      const late = p.confirmedLate ? '\n(دیرتر از مهلت پرداخت تأیید شد)' : '';
      const how = p.confirmationSource === 'manual' ? 'به‌دست شما' : 'خودکار، با پیامک بانک';
      return {
        text:
          `✅ پرداخت تأیید شد${testMark(p.sandbox)}\n` +
          `سفارش: ${order(p.orderId)}\nمبلغ: ${toman(p.amountReceived ?? p.amountFinal)}\n` +
          `زمان: ${jalaliTime(p.confirmedAt ?? n.createdAt)}\nتأیید: ${how}${late}${projectLine}\n\n${base}/payments/${p.id}`,
      };
    }
    case 'payment.review_required': {
      const p = n.paymentId ? await deps.prisma.payment.findUnique({ where: { id: n.paymentId } }) : null;
      if (!p) return null;
      const candidates = await candidatesForPayment(deps.prisma, p);
      const messages = await deps.prisma.bankMessage.findMany({ where: { id: { in: candidates.map((c) => c.bankMessageId) } } });
      const byId = new Map(messages.map((m) => [m.id, m]));
      const buttons: ButtonSpec[] = candidates.flatMap((c) => {
        const m = byId.get(c.bankMessageId);
        if (!m?.amount) return [];
        return [{ action: 'attach' as const, label: `واریز ${toman(m.amount)} — ${jalaliTime(m.bankTime ?? m.receivedAt).slice(-5)}`, messageId: m.id, paymentId: p.id }];
      });
      buttons.push({ action: 'dismiss_review', label: 'بررسی لازم نیست', paymentId: p.id });
      return {
        text:
          `⚠️ پرداخت نیاز به بررسی دارد${testMark(p.sandbox)}\n` +
          `سفارش: ${order(p.orderId)}\nمبلغ: ${toman(p.amountFinal)}\nدلیل: ${reason(p.reviewReason ?? n.payload.reviewReason)}\n` +
          `زمان: ${jalaliTime(n.createdAt)}${projectLine}\n` +
          (buttons.length > 1 ? 'اگر یکی از واریزهای زیر پول این سفارش است، آن را بزنید.\n' : '') +
          `\n${base}/payments/${p.id}`,
        prompt: { subjectType: 'payment', subjectId: p.id, buttons },
      };
    }
    case 'bank_message.needs_review': {
      const m = n.bankMessageId ? await deps.prisma.bankMessage.findUnique({ where: { id: n.bankMessageId } }) : null;
      if (!m?.amount) return null;
      // The payments of this event's project only (each project's notice names its own).
      const ids = Array.isArray(n.payload.candidatePaymentIds) ? (n.payload.candidatePaymentIds as string[]) : (await candidatesForMessage(deps.prisma, m)).map((c) => c.paymentId);
      const payments = await deps.prisma.payment.findMany({ where: { id: { in: ids }, merchantId: m.merchantId } });
      const byId = new Map(payments.map((p) => [p.id, p]));
      const buttons: ButtonSpec[] = ids.flatMap((id) => {
        const p = byId.get(id);
        return p ? [{ action: 'attach' as const, label: `پرداخت سفارش ${order(p.orderId)} (${toman(p.amountFinal)})`, messageId: m.id, paymentId: p.id }] : [];
      });
      buttons.push({ action: 'dismiss', label: 'نادیده گرفتن این واریز', messageId: m.id });
      return {
        text:
          `🔎 واریزی منتظر تصمیم شماست${testMark(m.simulated)}\n` +
          `مبلغ: ${toman(m.amount)}\nزمان: ${jalaliTime(m.bankTime ?? m.receivedAt)}\nدلیل: ${reason(m.reviewReason ?? n.payload.reviewReason)}${projectLine}\n` +
          (buttons.length > 1 ? 'اگر این پول یکی از سفارش‌های زیر است، آن را بزنید.\n' : '') +
          `\n${base}/review`,
        prompt: { subjectType: 'bank_message', subjectId: m.id, buttons },
      };
    }
    case 'card.balance_gap': {
      const gapId = str(n.payload.gapId);
      const gap = gapId ? await deps.prisma.balanceGap.findUnique({ where: { id: gapId } }) : null;
      const amount = gap?.amount ?? (str(n.payload.amount) ? BigInt(str(n.payload.amount)!) : null);
      if (amount === null) return null;
      const card = gap ? await deps.prisma.card.findUnique({ where: { id: gap.cardId }, select: { cardNumber: true } }) : null;
      const what = amount > 0n ? `پولی که پیامکش نرسیده: ${toman(amount)}` : `برداشتی که پیامکش نرسیده: ${toman(-amount)}`;
      // Resolving names a candidate payment (the missing money is its): one button per candidate.
      const ids = gap && gap.status === 'open' && Array.isArray(n.payload.candidatePaymentIds) ? (n.payload.candidatePaymentIds as string[]) : [];
      const payments = ids.length ? await deps.prisma.payment.findMany({ where: { id: { in: ids }, merchantId: gap!.merchantId } }) : [];
      const byId = new Map(payments.map((p) => [p.id, p]));
      const buttons: ButtonSpec[] = ids.flatMap((id) => {
        const p = byId.get(id);
        return p ? [{ action: 'resolve_gap' as const, label: `پول سفارش ${order(p.orderId)} بود (${toman(p.amountFinal)})`, gapId: gap!.id, paymentId: p.id }] : [];
      });
      const text =
        `💳 موجودی کارت${card ? ` ${faDigits(card.cardNumber.slice(-4))}` : ''} با پیامک‌ها نمی‌خواند\n${what}\n` +
        `زمان: ${jalaliTime(gap?.toAt ?? n.createdAt)}${projectLine}\n` +
        (buttons.length ? 'اگر این پول یکی از سفارش‌های زیر است، آن را بزنید.\n' : '') +
        `\n${base}/review`;
      return buttons.length && gap ? { text, prompt: { subjectType: 'balance_gap', subjectId: gap.id, buttons } } : { text };
    }
    case 'device.offline':
    case 'device.silent':
    case 'device.low_battery': {
      const d = n.deviceId ? await deps.prisma.device.findUnique({ where: { id: n.deviceId } }) : null;
      if (!d) return null;
      const last = str(n.payload.lastSeenAt);
      const level = n.payload.battery;
      const battery = typeof level === 'number' || (typeof level === 'string' && /^\d{1,3}$/.test(level)) ? `\nباتری: ${faDigits(level)}٪` : '';
      const lastSms = str(n.payload.lastBankMessageAt);
      const head =
        n.type === 'device.offline'
          ? `📵 گوشی «${d.name}» قطع شده است\nاز آن خبری نمی‌رسد؛ کارت‌هایش تا برگشتن آن به پرداخت‌ها داده نمی‌شوند.${last ? `\nآخرین خبر: ${jalaliTime(new Date(last))}` : ''}`
          : n.type === 'device.silent'
            ? `🔇 گوشی «${d.name}» روشن است ولی پیامکی از بانک نمی‌فرستد\nپرداخت‌هایی روی کارت‌هایش بوده ولی پیامک بانکی نرسیده است. برنامهٔ فرستندهٔ پیامک را بررسی کنید.${lastSms ? `\nآخرین پیامک بانک: ${jalaliTime(new Date(lastSms))}` : ''}`
            : `🪫 باتری گوشی «${d.name}» کم است${battery}\nگوشی را به شارژ بزنید تا پیامک‌ها نمانند.`;
      return { text: `${head}\nزمان: ${jalaliTime(n.createdAt)}\n\n${base}/devices` };
    }
    default:
      return null;
  }
}

/** The outcome line a decided message ends with. */
export function outcomeLine(outcome: string): string {
  return `\n\n— ${outcome}`;
}
