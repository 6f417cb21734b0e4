import { AppError } from '../../errors.js';

/**
 * Dashboard roles (CONTRACT "Merchant users and the dashboard"). Every role reads everything of
 * its merchant and exports; beyond that, what each may do is this table and nothing else:
 * `manage` is what the merchant key does (projects, keys, devices, cards, links, webhooks),
 * `decide` the exception decisions (attach, confirm by hand, reject, dismiss, refunds), `users`
 * inviting, changing and removing users and ending their sessions.
 */
export const USER_ROLES = ['owner', 'staff', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export type RolePower = 'manage' | 'decide' | 'users';

const POWERS: Record<UserRole, readonly RolePower[]> = {
  owner: ['manage', 'decide', 'users'],
  staff: ['decide'],
  viewer: [],
};

export function roleAllows(role: UserRole, power: RolePower): boolean {
  return POWERS[role].includes(power);
}

const REFUSALS: Record<RolePower, string> = {
  manage: 'Only an owner (or the merchant key) can change projects, keys, devices, cards, links and webhooks.',
  decide: 'A viewer cannot decide payments or deposits; an owner or staff member can.',
  users: 'Only an owner can manage users and their sessions.',
};

/** 403 `forbidden`: the caller is known, its role does not allow this. */
export function requireRole(role: UserRole, power: RolePower): void {
  if (!roleAllows(role, power)) throw new AppError('forbidden', REFUSALS[power], { role, needs: power });
}

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);
}
