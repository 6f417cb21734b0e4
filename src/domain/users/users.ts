import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import type { User } from '../../generated/prisma/client.js';
import { recordAudit } from '../audit/audit.js';
import { changesOf, createdValues } from '../audit/changes.js';
import { requireActor, type Actor, type UserActor } from '../auth/actor.js';
import { requireRole, USER_ROLES, type UserRole } from '../auth/roles.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { newSecretToken, SET_PASSWORD_TTL_MS, setPasswordUrl } from './session-rules.js';
import { lockMerchantUsers } from './store/users.js';

/**
 * Merchant users (docs/dashboard.md "Users and roles"): the operator adds them with the
 * CLI, an owner invites, changes and removes them. A new user gets a one-time set-password link
 * (24 h) instead of a password; nobody else ever knows it.
 */

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an email address'));
const roleSchema = z.enum(USER_ROLES, { message: `must be one of ${USER_ROLES.join(', ')}` });

const newUserInput = z.object({ email: emailSchema, role: roleSchema });
const operatorUserInput = newUserInput.extend({ merchantId: z.string() });
const updateUserInput = z.object({ role: roleSchema.nullish() });

export type NewUser = { user: User; setPasswordUrl: string };

/** Who may change users through the API: an owner's session, for its own merchant (the operator uses `addUser`). */
function userAdmin(actor: Actor): UserActor {
  const user = requireActor(actor, 'user');
  requireRole(user, 'users');
  return user;
}

/** The merchant's users, oldest first; any merchant credential reads them. */
export async function listUsers(deps: Deps, actor: Actor): Promise<User[]> {
  const caller = requireActor(actor, 'merchant', 'user');
  return deps.prisma.user.findMany({ where: { merchantId: caller.merchantId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Operator (CLI `merchant user add`): a user of any merchant, with its set-password link. */
export async function addUser(deps: Deps, actor: Actor, input: unknown): Promise<NewUser> {
  requireActor(actor, 'operator');
  const data = parseInput(operatorUserInput, input);
  if (!uuidSchema.safeParse(data.merchantId).success) throw AppError.notFound('Merchant');
  const merchant = await deps.prisma.merchant.findUnique({ where: { id: data.merchantId }, select: { id: true } });
  if (!merchant) throw AppError.notFound('Merchant');
  return createUser(deps, actor, merchant.id, data.email, data.role);
}

/** Owner: invites a user to the merchant; the link is shown once. */
export async function inviteUser(deps: Deps, actor: Actor, input: unknown): Promise<NewUser> {
  const owner = userAdmin(actor);
  const data = parseInput(newUserInput, input);
  return createUser(deps, actor, owner.merchantId, data.email, data.role);
}

async function createUser(deps: Deps, actor: Actor, merchantId: string, email: string, role: UserRole): Promise<NewUser> {
  try {
    return await deps.prisma.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { merchantId, email, role } });
      await recordAudit(tx, actor, {
        action: 'user.created',
        subjectType: 'user',
        subjectId: user.id,
        projectId: null,
        merchantId,
        changes: createdValues(user, ['email', 'role']),
      });
      const url = await issueSetPasswordLink(tx, deps, user.id);
      return { user, setPasswordUrl: url };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', 'A user with this email already exists.', { fields: [{ field: 'email', message: 'is already a user' }] });
    throw err;
  }
}

/** A new one-time set-password link for a user; links issued before it stop working. */
export async function issueSetPasswordLink(tx: Tx, deps: Pick<Deps, 'config'>, userId: string): Promise<string> {
  const now = new Date();
  await tx.setPasswordToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: now } });
  const { token, hash } = newSecretToken();
  await tx.setPasswordToken.create({ data: { userId, tokenHash: hash, expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_MS) } });
  return setPasswordUrl(deps.config.publicBaseUrl, token);
}

/** A user of the caller's merchant, locked with every other user of it (the last-owner rule). */
async function lockUserOfMerchant(tx: Tx, merchantId: string, id: string): Promise<{ user: User; owners: number }> {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('User');
  const rows = await lockMerchantUsers(tx, merchantId);
  if (!rows.some((r) => r.id === id)) throw AppError.notFound('User');
  const user = await tx.user.findUniqueOrThrow({ where: { id } });
  return { user, owners: rows.filter((r) => r.role === 'owner').length };
}

const lastOwner = (what: string) =>
  new AppError('invalid_state', `${what}: a merchant keeps at least one owner. Make another user an owner first.`, { reason: 'last_owner' });

/** Owner: changes a user's role. The last owner cannot be made anything else. */
export async function updateUser(deps: Deps, actor: Actor, id: string, input: unknown): Promise<User> {
  const owner = userAdmin(actor);
  const data = parseInput(updateUserInput, input ?? {});
  const updated = await deps.prisma.$transaction(async (tx) => {
    const { user, owners } = await lockUserOfMerchant(tx, owner.merchantId, id);
    if (!data.role || data.role === user.role) return user;
    if (user.role === 'owner' && owners <= 1) throw lastOwner('This is the last owner');
    const updated = await tx.user.update({ where: { id: user.id }, data: { role: data.role } });
    await recordAudit(tx, actor, { action: 'user.updated', subjectType: 'user', subjectId: user.id, projectId: null, changes: changesOf(user, updated, ['role']) });
    return updated;
  });
  forgetCachedCredentials(deps);
  return updated;
}

/** Owner: removes a user (its sessions and links end with it). The last owner cannot be removed. */
export async function removeUser(deps: Deps, actor: Actor, id: string): Promise<User> {
  const owner = userAdmin(actor);
  const removed = await deps.prisma.$transaction(async (tx) => {
    const { user, owners } = await lockUserOfMerchant(tx, owner.merchantId, id);
    if (user.role === 'owner' && owners <= 1) throw lastOwner('This is the last owner');
    await tx.user.delete({ where: { id: user.id } });
    await recordAudit(tx, actor, {
      action: 'user.removed',
      subjectType: 'user',
      subjectId: user.id,
      projectId: null,
      changes: changesOf(user, { email: null, role: null }, ['email', 'role']),
    });
    return user;
  });
  forgetCachedCredentials(deps);
  return removed;
}

/** Owner: a new set-password link for a user of the merchant (a forgotten password); shown once. */
export async function resetUserPassword(deps: Deps, actor: Actor, id: string): Promise<NewUser> {
  const owner = userAdmin(actor);
  return deps.prisma.$transaction(async (tx) => {
    const { user } = await lockUserOfMerchant(tx, owner.merchantId, id);
    const url = await issueSetPasswordLink(tx, deps, user.id);
    await recordAudit(tx, actor, { action: 'user.password_link_issued', subjectType: 'user', subjectId: user.id, projectId: null });
    return { user, setPasswordUrl: url };
  });
}
