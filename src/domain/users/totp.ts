import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { User } from '../../generated/prisma/client.js';
import { recordAudit } from '../audit/audit.js';
import { requireActor, type Actor, type UserActor } from '../auth/actor.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import type { SecretBox } from '../auth/secret-box.js';
import type { Deps } from '../deps.js';
import { parseInput } from '../validation.js';
import { admitLoginAttempt } from './login-throttle.js';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, readSecondFactor, stepOfCode, type SecondFactor } from './totp-rules.js';

/**
 * A dashboard user's own two-factor sign-in (docs/security.md "Signing in"): `enableTotp` makes a
 * pending secret, `confirmTotp` turns it on with the first code and hands out the recovery codes
 * (once), `disableTotp` turns it off with a code or a recovery code. The secret is sealed at rest
 * (src/domain/auth/secret-box.ts); a wrong code counts as a failed sign-in of the session.
 */

export const secondFactorSchema = z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters');
const codeInput = z.object({ code: secondFactorSchema });

export type TotpSetup = { secret: string; otpauthUrl: string };

const alreadyOn = () => new AppError('invalid_state', 'Two-factor is already on: turn it off first (disableTotp) to move it to another phone.', { reason: 'totp_enabled' });
const notOn = () => new AppError('invalid_state', 'Two-factor is not on.', { reason: 'totp_disabled' });

/** The user's own session; a wrong code is counted like a failed sign-in from it. */
function sessionSource(me: UserActor) {
  return { ip: `session:${me.sessionId ?? 'none'}`, deviceId: null };
}

/** A new pending secret for the signed-in user (not on yet; a second call replaces it). */
export async function enableTotp(deps: Deps, actor: Actor): Promise<TotpSetup> {
  const me = requireActor(actor, 'user');
  const secret = newTotpSecret();
  const user = await deps.prisma.$transaction(async (tx) => {
    const pending = await tx.user.updateMany({ where: { id: me.userId, totpEnabledAt: null }, data: { totpSecret: deps.secrets.seal(secret), totpLastStep: null } });
    if (pending.count === 0) throw alreadyOn();
    await recordAudit(tx, me, { action: 'user.totp_setup_started', subjectType: 'user', subjectId: me.userId, projectId: null });
    return tx.user.findUniqueOrThrow({ where: { id: me.userId } });
  });
  return { secret, otpauthUrl: otpauthUrl(secret, new URL(deps.config.publicBaseUrl).host, user.email) };
}

/** Turns two-factor on with the authenticator's current code; the ten recovery codes are returned only now. */
export async function confirmTotp(deps: Deps, actor: Actor, input: unknown): Promise<{ recoveryCodes: string[] }> {
  const me = requireActor(actor, 'user');
  const { code } = parseInput(codeInput, input);
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: me.userId } });
  if (user.totpEnabledAt) throw alreadyOn();
  if (!user.totpSecret) throw new AppError('invalid_state', 'There is no two-factor set-up to confirm: call enableTotp first.', { reason: 'totp_not_pending' });
  const attempt = await admitLoginAttempt(deps.pool, user.email, sessionSource(me));
  const factor = readSecondFactor(code);
  const step = factor?.kind === 'code' ? stepOfCode(deps.secrets.open(user.totpSecret), factor.code) : null;
  if (step === null) throw AppError.invalid([{ field: 'code', message: 'is not the authenticator’s current code' }]);
  await attempt.succeeded();
  const { codes, hashes } = newRecoveryCodes();
  await deps.prisma.$transaction(async (tx) => {
    // The secret checked is still the pending one: a set-up replaced meanwhile is not turned on.
    const on = await tx.user.updateMany({ where: { id: me.userId, totpEnabledAt: null, totpSecret: user.totpSecret }, data: { totpEnabledAt: new Date(), totpLastStep: BigInt(step) } });
    if (on.count === 0) throw new AppError('invalid_state', 'The two-factor set-up changed meanwhile: scan the new code and confirm again.', { reason: 'totp_not_pending' });
    await tx.totpRecoveryCode.deleteMany({ where: { userId: me.userId } });
    await tx.totpRecoveryCode.createMany({ data: hashes.map((codeHash) => ({ userId: me.userId, codeHash })) });
    await recordAudit(tx, me, { action: 'user.totp_enabled', subjectType: 'user', subjectId: me.userId, projectId: null, changes: { totpEnabled: { from: false, to: true } } });
  });
  forgetCachedCredentials(deps);
  return { recoveryCodes: codes };
}

/** Turns two-factor off, with a current code or an unused recovery code (spent by this). */
export async function disableTotp(deps: Deps, actor: Actor, input: unknown): Promise<User> {
  const me = requireActor(actor, 'user');
  const { code } = parseInput(codeInput, input);
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: me.userId } });
  if (!user.totpEnabledAt || !user.totpSecret) throw notOn();
  const attempt = await admitLoginAttempt(deps.pool, user.email, sessionSource(me));
  const sealed = user.totpSecret;
  const updated = await deps.prisma.$transaction(async (tx) => {
    const used = await spendSecondFactor(tx, deps.secrets, { id: me.userId, sealedSecret: sealed }, readSecondFactor(code));
    if (!used) throw AppError.invalid([{ field: 'code', message: 'is not a current code or an unused recovery code' }]);
    await tx.totpRecoveryCode.deleteMany({ where: { userId: me.userId } });
    const off = await tx.user.update({ where: { id: me.userId }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null } });
    await recordAudit(tx, me, {
      action: 'user.totp_disabled',
      subjectType: 'user',
      subjectId: me.userId,
      projectId: null,
      note: used === 'recovery' ? 'with a recovery code' : null,
      changes: { totpEnabled: { from: true, to: false } },
    });
    return off;
  });
  await attempt.succeeded();
  forgetCachedCredentials(deps);
  return updated;
}

/**
 * Spends a second factor of a user with two-factor on, in the caller's transaction: a code of a
 * step above the last one used (so no code is accepted twice, even by two requests at once: the
 * update is conditional on the step), or an unused recovery code. Which kind was spent, or null.
 */
export async function spendSecondFactor(
  tx: Tx,
  secrets: SecretBox,
  user: { id: string; sealedSecret: string },
  factor: SecondFactor | null,
): Promise<SecondFactor['kind'] | null> {
  if (!factor) return null;
  if (factor.kind === 'recovery') {
    const spent = await tx.totpRecoveryCode.updateMany({ where: { userId: user.id, codeHash: factor.hash, usedAt: null }, data: { usedAt: new Date() } });
    return spent.count ? 'recovery' : null;
  }
  const step = stepOfCode(secrets.open(user.sealedSecret), factor.code);
  if (step === null) return null;
  const spent = await tx.user.updateMany({
    where: { id: user.id, totpEnabledAt: { not: null }, OR: [{ totpLastStep: null }, { totpLastStep: { lt: BigInt(step) } }] },
    data: { totpLastStep: BigInt(step) },
  });
  return spent.count ? 'code' : null;
}
