import { AppError } from '../errors.js';
import { attachDeposit } from '../operations/attach-deposit.js';
import { dismissDeposit } from '../operations/dismiss-deposit.js';
import { dismissPaymentReview } from '../operations/dismiss-payment-review.js';
import { resolveBalanceGap } from '../operations/resolve-balance-gap.js';
import { runOperation } from '../operations/run.js';
import type { UserActor } from '../domain/auth/actor.js';
import { isUserRole } from '../domain/auth/roles.js';
import type { Deps } from '../domain/deps.js';
import { faDigits, jalaliTime } from '../domain/chat/format.js';
import { viaOf, PLATFORM_NAMES, type ChatPlatform } from '../domain/chat/kinds.js';
import { outcomeLine } from '../domain/chat/render.js';

/** What a press answers: the callback's short answer, and the message's new text (its buttons gone) when it changes. */
export type PressAnswer = { answer: string; edit: string | null };

export const ANSWERS = {
  unknown: 'این دکمه دیگر معتبر نیست.',
  notAllowed: 'اجازهٔ این کار را ندارید: نقش شما فقط دیدن است.',
  inactive: 'حساب این فروشنده غیرفعال است؛ تصمیمی گرفته نشد.',
  totp: 'پیش از این تصمیم، ورود دومرحله‌ای را در داشبورد فعال کنید.',
  already: 'دربارهٔ این مورد قبلاً تصمیم گرفته شده است.',
  amount: 'مبلغ این واریز با این پرداخت نمی‌خواند؛ از داشبورد تصمیم بگیرید.',
  failed: 'انجام نشد؛ چند لحظه بعد دوباره امتحان کنید.',
} as const;

const DECIDED_ELSEWHERE = 'دربارهٔ این مورد جای دیگری تصمیم گرفته شد.';

/**
 * A press of a decision button (callback_data = a button token). The token is looked up, and must
 * belong to a prompt sent to this very chat on this platform; anything else does nothing. The
 * decision then runs as the link's user through the same operation as the dashboard
 * (`runOperation`: role and two-factor checked, one transaction, audited with the user as actor
 * and `via: telegram | bale`). A prompt decided before (here or, found by the operation's
 * refusal, anywhere else) answers "already decided" and shows so.
 */
export async function pressButton(deps: Deps, platform: ChatPlatform, press: { token: string; chatId: number }): Promise<PressAnswer> {
  const button = /^[A-Za-z0-9_-]{1,64}$/.test(press.token)
    ? await deps.prisma.chatButton.findUnique({ where: { token: press.token }, include: { prompt: { include: { link: { include: { user: { include: { merchant: true } } } } } } } })
    : null;
  const link = button?.prompt.link;
  if (!button || !link || link.platform !== platform || link.chatId !== BigInt(press.chatId)) return { answer: ANSWERS.unknown, edit: null };
  const prompt = button.prompt;
  if (prompt.decidedAt) return { answer: ANSWERS.already, edit: prompt.text + outcomeLine(prompt.outcome ?? DECIDED_ELSEWHERE) };
  const user = link.user;
  // A merchant the operator deactivated decides nothing (its dashboard sessions are refused too).
  if (!user.merchant.active) return { answer: ANSWERS.inactive, edit: null };
  if (!isUserRole(user.role)) return { answer: ANSWERS.notAllowed, edit: null };
  const actor: UserActor = {
    kind: 'user',
    userId: user.id,
    merchantId: user.merchantId,
    role: user.role,
    sessionId: null,
    mustSetUpTotp: user.merchant.requireTotp && user.totpEnabledAt === null,
  };
  const via = viaOf(platform);
  const note = `از ${PLATFORM_NAMES[platform]}`;
  let outcome: string;
  try {
    switch (button.action) {
      case 'attach': {
        const done = await runOperation(deps, attachDeposit, actor, { body: { messageId: button.messageId, paymentId: button.paymentId, note } }, { via });
        outcome = `✅ واریز به سفارش ${done.payment.orderId ?? faDigits('—')} وصل و پرداخت تأیید شد`;
        break;
      }
      case 'dismiss':
        await runOperation(deps, dismissDeposit, actor, { id: button.messageId ?? '', body: { note } }, { via });
        outcome = '🚫 واریز نادیده گرفته شد';
        break;
      case 'resolve_gap': {
        // Resolving the same gap with the same payment again is the operation's idempotent repeat: a decided gap is already decided here.
        const gap = button.gapId ? await deps.prisma.balanceGap.findUnique({ where: { id: button.gapId } }) : null;
        if (gap && gap.status !== 'open') {
          await markDecided(deps, subjectsOf(prompt.subjectId, button), null, DECIDED_ELSEWHERE);
          return { answer: ANSWERS.already, edit: prompt.text + outcomeLine(DECIDED_ELSEWHERE) };
        }
        await runOperation(deps, resolveBalanceGap, actor, { id: button.gapId ?? '', body: { paymentId: button.paymentId, note } }, { via });
        const paid = button.paymentId ? await deps.prisma.payment.findUnique({ where: { id: button.paymentId }, select: { orderId: true } }) : null;
        outcome = `✅ پول گم‌شده به سفارش ${paid?.orderId ?? '—'} داده و پرداخت تأیید شد`;
        break;
      }
      case 'dismiss_review':
        await runOperation(deps, dismissPaymentReview, actor, { id: button.paymentId ?? '', body: { note } }, { via });
        outcome = '☑️ بررسی این پرداخت لازم نبود';
        break;
      default:
        return { answer: ANSWERS.unknown, edit: null };
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    switch (err.code) {
      case 'forbidden':
        return { answer: ANSWERS.notAllowed, edit: null };
      case 'totp_required':
        return { answer: ANSWERS.totp, edit: null };
      case 'amount_mismatch':
        return { answer: ANSWERS.amount, edit: null };
      case 'invalid_state':
      case 'not_found': {
        // Decided elsewhere (the dashboard, the API, another chat, a press a moment ago).
        await markDecided(deps, subjectsOf(prompt.subjectId, button), null, DECIDED_ELSEWHERE);
        return { answer: ANSWERS.already, edit: prompt.text + outcomeLine(DECIDED_ELSEWHERE) };
      }
      default:
        deps.log.warn({ err, token: press.token }, 'chat button: decision refused');
        return { answer: ANSWERS.failed, edit: null };
    }
  }
  const line = `${outcome}\n${user.email}، از ${PLATFORM_NAMES[platform]}، ${jalaliTime(new Date())}`;
  await markDecided(deps, subjectsOf(prompt.subjectId, button), prompt.id, line);
  return { answer: outcome, edit: prompt.text + outcomeLine(line) };
}

/** Every prompt about the subject is decided: this one with its outcome, the others' "decided elsewhere". */
async function markDecided(deps: Deps, subjectIds: string[], promptId: string | null, outcome: string): Promise<void> {
  const now = new Date();
  if (promptId) await deps.prisma.chatPrompt.updateMany({ where: { id: promptId, decidedAt: null }, data: { decidedAt: now, outcome } });
  await deps.prisma.chatPrompt.updateMany({ where: { subjectId: { in: subjectIds }, decidedAt: null }, data: { decidedAt: now, outcome: DECIDED_ELSEWHERE } });
}

/** What a decision settles: the prompt's subject, and for an attach both the deposit and the payment. */
function subjectsOf(subjectId: string, button: { action: string; messageId: string | null; paymentId: string | null }): string[] {
  const ids = new Set([subjectId]);
  if (button.action === 'attach' || button.action === 'resolve_gap') for (const id of [button.messageId, button.paymentId]) if (id) ids.add(id);
  return [...ids];
}
