import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { Session, User } from '../../generated/prisma/client.js';
import { recordAudit } from '../audit/audit.js';
import { requireActor, type Actor, type UserActor } from '../auth/actor.js';
import { hashCredential } from '../auth/credentials.js';
import { isUserRole, requireRole } from '../auth/roles.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { admitLoginAttempt } from './login-throttle.js';
import { hashPassword, newPasswordSchema, typedPasswordSchema, verifyNobody, verifyPassword } from './password.js';
import { newSecretToken, SECRET_TOKEN_PATTERN, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, TRUSTED_DEVICE_MS } from './session-rules.js';
import { spendSetPasswordToken } from './store/set-password-tokens.js';
import { forgetOldDevices, trustedDeviceOf } from './store/trusted-devices.js';
import { userByEmail } from './store/users.js';
import { secondFactorSchema, spendSecondFactor } from './totp.js';
import { readSecondFactor } from './totp-rules.js';

/**
 * Dashboard sessions: sign-in with email and password, and the two-factor code when the user has
 * it on (throttled, and saying nothing about which emails have accounts), sign-out, the
 * set-password link, listing and ending sessions.
 */

export const signInInput = z.object({
  email: z.string().trim().min(1, 'is required').max(320, 'must be at most 320 characters'),
  password: typedPasswordSchema,
  totp: secondFactorSchema.nullish(),
});
export const setPasswordInput = z.object({ token: z.string().max(200, 'must be at most 200 characters'), password: newPasswordSchema });
const changePasswordInput = z.object({ currentPassword: typedPasswordSchema, newPassword: newPasswordSchema });

/** The browser signing in: its address, User-Agent, and the device cookie it holds, if any. */
export type Client = { ip: string | undefined; userAgent: string | undefined; deviceToken?: string | undefined };

/** A new session's token, and the browser's new device token (both for cookies, shown only now). */
export type SignedIn = { token: string; deviceToken: string; session: Session };

const WRONG_CREDENTIALS = 'The email or the password is not right.';
const MAX_USER_AGENT = 300;

/**
 * Sign-in: a new session and device token for the cookies (shown only now). An unknown email, a
 * user who has not set a password, a wrong password and a wrong two-factor code are one answer
 * (401 `unauthorized`, same message), each after one password hash; a user with two-factor on
 * whose password was right and who sent no code: 401 `totp_required`. Failures are throttled per
 * email and client address, or per trusted device (login-throttle.ts): 429.
 */
export async function signIn(deps: Deps, input: unknown, client: Client): Promise<SignedIn> {
  const data = parseInput(signInInput, input);
  const email = data.email.trim().toLowerCase();
  const user = await userByEmail(deps.pool, email);
  const deviceId = user && client.deviceToken && SECRET_TOKEN_PATTERN.test(client.deviceToken) ? await trustedDeviceOf(deps.pool, hashCredential(client.deviceToken), user.id) : null;
  const attempt = await admitLoginAttempt(deps.pool, email, { ip: client.ip ?? 'unknown', deviceId });
  const right = user?.password_hash ? await verifyPassword(data.password, user.password_hash) : await verifyNobody(data.password);
  if (!user || !right || !isUserRole(user.role)) throw new AppError('unauthorized', WRONG_CREDENTIALS);
  // The password was right: not a failure, whatever is refused next.
  if (!user.merchant_active) {
    await attempt.succeeded();
    throw new AppError('merchant_inactive');
  }
  if (user.totp_secret && !data.totp) {
    await attempt.succeeded();
    throw AppError.totpRequiredAtSignIn();
  }
  const sealedSecret = user.totp_secret;
  const { token, hash } = newSecretToken();
  const device = newSecretToken();
  const now = Date.now();
  const session = await deps.prisma.$transaction(async (tx) => {
    const factor = sealedSecret ? await spendSecondFactor(tx, deps.secrets, { id: user.id, sealedSecret }, readSecondFactor(data.totp ?? '')) : null;
    if (sealedSecret && !factor) throw new AppError('unauthorized', WRONG_CREDENTIALS);
    // The browser's device token is new at each sign-in; the one it replaces stops counting.
    if (deviceId) await tx.trustedDevice.deleteMany({ where: { id: deviceId } });
    await tx.trustedDevice.create({ data: { userId: user.id, tokenHash: device.hash, expiresAt: new Date(now + TRUSTED_DEVICE_MS) } });
    await forgetOldDevices(tx, user.id);
    const created = await tx.session.create({
      data: {
        userId: user.id,
        tokenHash: hash,
        expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
        ip: client.ip ?? null,
        userAgent: client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      },
    });
    const actor: UserActor = { kind: 'user', userId: user.id, merchantId: user.merchant_id, role: user.role as UserActor['role'], sessionId: created.id, mustSetUpTotp: false };
    await recordAudit(tx, actor, {
      action: 'user.signed_in',
      subjectType: 'user',
      subjectId: user.id,
      projectId: null,
      note: factor === 'recovery' ? 'with a two-factor recovery code' : null,
      changes: { sessionId: { from: null, to: created.id } },
    });
    return created;
  });
  await attempt.succeeded();
  return { token, deviceToken: device.token, session };
}

/** Sign-out: the cookie's session ends (nothing happens for a token that is unknown or already ended). */
export async function signOut(deps: Deps, token: string | undefined): Promise<void> {
  if (!token || !SECRET_TOKEN_PATTERN.test(token)) return;
  await deps.prisma.$transaction(async (tx) => {
    const session = await tx.session.findUnique({ where: { tokenHash: hashCredential(token) }, include: { user: true } });
    if (!session || session.revokedAt) return;
    await tx.session.update({ where: { id: session.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, userActorOf(session.user, session.id), { action: 'user.signed_out', subjectType: 'user', subjectId: session.userId, projectId: null, changes: { sessionId: { from: session.id, to: null } } });
  });
  forgetCachedCredentials(deps);
}

function userActorOf(user: User, sessionId: string | null): UserActor {
  if (!isUserRole(user.role)) throw new Error(`user ${user.id} has an unknown role`);
  return { kind: 'user', userId: user.id, merchantId: user.merchantId, role: user.role, sessionId, mustSetUpTotp: false };
}

/** Ends the user's sessions but `keep` (the one that made the change, if it is the user's own). */
async function endOtherSessions(tx: Tx, userId: string, keep: string | null): Promise<number> {
  const ended = await tx.session.updateMany({ where: { userId, revokedAt: null, ...(keep ? { id: { not: keep } } : {}) }, data: { revokedAt: new Date() } });
  return ended.count;
}

/**
 * The set-password link: `{token, password}`. The token works once and for 24 h (a used, expired
 * or unknown one → 400 naming `token`); the password needs 10 characters. Every other session of
 * the user ends; the caller's own session (`sessionToken`, when it is the same user's) stays.
 */
export async function setPasswordWithToken(deps: Deps, input: unknown, sessionToken?: string): Promise<void> {
  const data = parseInput(setPasswordInput, input);
  const badToken = () => AppError.invalid([{ field: 'token', message: 'is used, expired or unknown: ask for a new link' }]);
  if (!SECRET_TOKEN_PATTERN.test(data.token)) throw badToken();
  const passwordHash = await hashPassword(data.password);
  await deps.prisma.$transaction(async (tx) => {
    const userId = await spendSetPasswordToken(tx, hashCredential(data.token));
    if (!userId) throw badToken();
    const user = await tx.user.update({ where: { id: userId }, data: { passwordHash, passwordSetAt: new Date() } });
    await tx.setPasswordToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: new Date() } });
    const own = sessionToken && SECRET_TOKEN_PATTERN.test(sessionToken)
      ? await tx.session.findFirst({ where: { tokenHash: hashCredential(sessionToken), userId, revokedAt: null }, select: { id: true } })
      : null;
    const ended = await endOtherSessions(tx, userId, own?.id ?? null);
    await recordAudit(tx, userActorOf(user, own?.id ?? null), {
      action: 'user.password_set',
      subjectType: 'user',
      subjectId: userId,
      projectId: null,
      note: ended ? `${ended} other session(s) ended` : null,
    });
  });
  forgetCachedCredentials(deps);
}

/** A signed-in user changes their password (the current one is checked and throttled like a sign-in); their other sessions end. */
export async function changePassword(deps: Deps, actor: Actor, input: unknown): Promise<void> {
  const me = requireActor(actor, 'user');
  const data = parseInput(changePasswordInput, input);
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: me.userId } });
  const attempt = await admitLoginAttempt(deps.pool, user.email, { ip: `session:${me.sessionId ?? 'none'}`, deviceId: null });
  const right = user.passwordHash ? await verifyPassword(data.currentPassword, user.passwordHash) : await verifyNobody(data.currentPassword);
  if (!right) throw AppError.invalid([{ field: 'currentPassword', message: 'is not right' }]);
  await attempt.succeeded();
  const passwordHash = await hashPassword(data.newPassword);
  await deps.prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: me.userId }, data: { passwordHash, passwordSetAt: new Date() } });
    const ended = await endOtherSessions(tx, me.userId, me.sessionId);
    await recordAudit(tx, me, { action: 'user.password_changed', subjectType: 'user', subjectId: me.userId, projectId: null, note: ended ? `${ended} other session(s) ended` : null });
  });
  forgetCachedCredentials(deps);
}

export type SessionWithUser = Session & { user: User };

/**
 * Live sessions (not ended, not idle for 12 h, not past 7 days), newest first: the caller's own,
 * or with `allUsers` (owners) every user's of the merchant.
 */
export async function listSessions(deps: Deps, actor: Actor, opts: { allUsers?: boolean | null } = {}): Promise<SessionWithUser[]> {
  const me = requireActor(actor, 'user');
  if (opts.allUsers) requireRole(me, 'users');
  const now = Date.now();
  return deps.prisma.session.findMany({
    where: {
      revokedAt: null,
      expiresAt: { gt: new Date(now) },
      lastSeenAt: { gt: new Date(now - SESSION_IDLE_MS) },
      ...(opts.allUsers ? { user: { merchantId: me.merchantId } } : { userId: me.userId }),
    },
    include: { user: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Ends a session: one's own always; another user's of the merchant only as an owner. */
export async function revokeSession(deps: Deps, actor: Actor, id: string): Promise<SessionWithUser> {
  const me = requireActor(actor, 'user');
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Session');
  const revoked = await deps.prisma.$transaction(async (tx) => {
    const session = await tx.session.findFirst({ where: { id, user: { merchantId: me.merchantId } }, include: { user: true } });
    if (!session) throw AppError.notFound('Session');
    if (session.userId !== me.userId) requireRole(me, 'users');
    if (session.revokedAt) return session;
    const ended = await tx.session.update({ where: { id }, data: { revokedAt: new Date() }, include: { user: true } });
    await recordAudit(tx, me, { action: 'user.session_revoked', subjectType: 'user', subjectId: session.userId, projectId: null, changes: { sessionId: { from: id, to: null } } });
    return ended;
  });
  forgetCachedCredentials(deps);
  return revoked;
}
