import nodemailer from 'nodemailer';
import type { Deps } from '../deps.js';
import { hashCredential } from '../auth/credentials.js';
import { RESET_LINK_TTL_MS } from './password-reset.js';

/** The reset mail: Persian first (the dashboard's language), then English; plain text and a right-to-left HTML part. */
export function resetMail(url: string): { subject: string; text: string; html: string } {
  const minutes = RESET_LINK_TTL_MS / 60_000;
  const faMinutes = minutes.toLocaleString('fa-IR');
  const subject = 'تعیین گذرواژهٔ تازه — Reset your password';
  const text = [
    'سلام،',
    'کسی (امیدواریم خودتان) خواسته است گذرواژهٔ حساب شما در داشبورد درگاه پرداخت عوض شود.',
    `برای تعیین گذرواژهٔ تازه این پیوند را باز کنید (یک بار و تا ${faMinutes} دقیقه کار می‌کند):`,
    url,
    'اگر شما نخواسته‌اید، این نامه را نادیده بگیرید؛ گذرواژهٔ کنونی‌تان عوض نمی‌شود.',
    '',
    '---',
    '',
    'Hello,',
    'Someone (we hope you) asked to reset the password of your payment gateway dashboard account.',
    `Open this link to set a new password (it works once, for ${minutes} minutes):`,
    url,
    'If it was not you, ignore this message; your current password stays as it is.',
  ].join('\n');
  const escaped = url.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  const html = `<!doctype html><html><body>
<div dir="rtl" lang="fa" style="font-family: Tahoma, sans-serif">
<p>سلام،</p>
<p>کسی (امیدواریم خودتان) خواسته است گذرواژهٔ حساب شما در داشبورد درگاه پرداخت عوض شود.</p>
<p><a href="${escaped}">تعیین گذرواژهٔ تازه</a> (یک بار و تا ${faMinutes} دقیقه کار می‌کند)</p>
<p>اگر شما نخواسته‌اید، این نامه را نادیده بگیرید؛ گذرواژهٔ کنونی‌تان عوض نمی‌شود.</p>
</div>
<hr>
<div dir="ltr" lang="en">
<p>Someone (we hope you) asked to reset the password of your payment gateway dashboard account.</p>
<p><a href="${escaped}">Set a new password</a> (works once, for ${minutes} minutes)</p>
<p>If it was not you, ignore this message; your current password stays as it is.</p>
</div>
<p dir="ltr" style="font-size: small; color: #555">${escaped}</p>
</body></html>`;
  return { subject, text, html };
}

/**
 * The `send-password-reset` job: mails the link to the user if the link still works (not used,
 * not expired, not replaced by a newer one) and the user still exists; otherwise nothing. A retry
 * after a send whose completion was lost may send the mail twice: mail is at-least-once.
 */
export async function sendPasswordResetMail(deps: Deps, data: { userId: string; sealedUrl: string }): Promise<'sent' | 'stale'> {
  const mail = deps.config.mail;
  if (!mail) return 'stale';
  const url = deps.secrets.open(data.sealedUrl);
  const token = new URL(url).searchParams.get('token') ?? '';
  const link = await deps.prisma.setPasswordToken.findUnique({ where: { tokenHash: hashCredential(token) }, include: { user: { select: { email: true } } } });
  if (!link || link.userId !== data.userId || link.usedAt || link.expiresAt.getTime() <= Date.now()) return 'stale';
  const transport = nodemailer.createTransport(mail.smtpUrl);
  try {
    await transport.sendMail({ from: mail.from, to: link.user.email, ...resetMail(url) });
  } finally {
    transport.close();
  }
  deps.log.info({ userId: data.userId }, 'password reset mail sent');
  return 'sent';
}
