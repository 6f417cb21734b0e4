import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { recordAudit, systemActor } from '../audit/audit.js';
import { operatorActor } from '../auth/actor.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import type { Deps } from '../deps.js';
import { parseInput } from '../validation.js';
import { newSecretToken, setPasswordUrl } from './session-rules.js';
import { lockUserByEmail } from './store/reset.js';
import { emailSchema } from './users.js';

/**
 * A forgotten password (docs/dashboard.md "Signing in"; the OpenAPI document's `requestPasswordReset`):
 * `POST /v1/session/reset {email}` answers 204 whatever the email. With SMTP_URL and MAIL_FROM set,
 * a known user gets a mail with a one-time set-password link good for RESET_LINK_TTL_MS; the mail
 * is a job (`send-password-reset`) enqueued in the transaction that issued the link. Without mail
 * the login page says to ask the merchant's owner, and the operator has `merchant user reset`.
 */

/** A reset link works once, for an hour (an invitation's link: 24 h). */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** At most this many reset mails per user per RESET_WINDOW_MS; beyond, requests are answered alike and send nothing. */
export const RESETS_PER_WINDOW = 3;
export const RESET_WINDOW_MS = 60 * 60 * 1000;

export const resetInput = z.object({ email: emailSchema }).strict();

/** Whether the login page may offer "email me a link" (GET /v1/session/reset, GraphQL `passwordResetByEmail`). */
export function passwordResetByEmail(deps: Pick<Deps, 'config'>): boolean {
  return deps.config.mail !== undefined;
}

/** A one-time link of RESET_LINK_TTL_MS; links issued before it stop working. */
async function issueResetLink(tx: Tx, deps: Pick<Deps, 'config'>, userId: string): Promise<string> {
  const now = new Date();
  await tx.setPasswordToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
  const { token, hash } = newSecretToken();
  await tx.setPasswordToken.create({ data: { userId, tokenHash: hash, expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS) } });
  return setPasswordUrl(deps.config.publicBaseUrl, token);
}

/**
 * The public request. A malformed email is 400 (it names no user either way); every well-formed
 * one is answered alike. A known user under the per-user limit gets a link by mail: the link is
 * issued, the mail job enqueued (the link sealed with the service's secret key, never stored in
 * the clear) and the request audited, in one transaction. Their sessions end when the link is
 * used (POST /v1/session/password), not at the request, so nobody can sign a user out by typing
 * their email.
 */
export async function requestPasswordReset(deps: Deps, input: unknown): Promise<void> {
  const { email } = parseInput(resetInput, input);
  if (!passwordResetByEmail(deps)) return;
  await deps.prisma.$transaction(async (tx) => {
    // Locked: one user's requests take turns, so the limit below holds under concurrent ones.
    const user = await lockUserByEmail(tx, email);
    if (!user) return;
    const recent = await tx.setPasswordToken.count({ where: { userId: user.id, createdAt: { gt: new Date(Date.now() - RESET_WINDOW_MS) } } });
    if (recent >= RESETS_PER_WINDOW) return;
    const url = await issueResetLink(tx, deps, user.id);
    await deps.jobs.send('send-password-reset', { userId: user.id, sealedUrl: deps.secrets.seal(url) }, { tx });
    await recordAudit(tx, systemActor('password reset by email'), {
      action: 'user.password_reset_requested',
      subjectType: 'user',
      subjectId: user.id,
      projectId: null,
      merchantId: user.merchantId,
    });
  });
}

/**
 * The operator's reset (`merchant user reset --email E`): a one-time link of RESET_LINK_TTL_MS,
 * and every session of the user ends now. Unknown email → 404.
 */
export async function operatorResetLink(deps: Deps, input: unknown): Promise<{ userId: string; email: string; setPasswordUrl: string; sessionsEnded: number }> {
  const { email } = parseInput(resetInput, input);
  const result = await deps.prisma.$transaction(async (tx) => {
    const user = await lockUserByEmail(tx, email);
    if (!user) throw AppError.notFound('User');
    const url = await issueResetLink(tx, deps, user.id);
    const ended = await tx.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await recordAudit(tx, operatorActor, {
      action: 'user.password_reset',
      subjectType: 'user',
      subjectId: user.id,
      projectId: null,
      merchantId: user.merchantId,
      note: ended.count ? `${ended.count} session(s) ended` : null,
    });
    return { userId: user.id, email: user.email, setPasswordUrl: url, sessionsEnded: ended.count };
  });
  forgetCachedCredentials(deps);
  return result;
}
