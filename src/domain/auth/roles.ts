import { AppError } from '../../errors.js';

/**
 * Dashboard roles (docs/dashboard.md "Users and roles"). Every role reads everything of
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

/**
 * What the check needs of a dashboard user: its role, and whether its merchant requires two-factor
 * that the user has not set up (`merchants.require_totp` and no `users.totp_enabled_at`).
 */
export type RoleHolder = { role: UserRole; mustSetUpTotp: boolean };

/**
 * 403 `forbidden`: the caller is known, its role does not allow this. 403 `totp_required`: the
 * role allows it, but the merchant requires two-factor and this user has not set it up; such a
 * user signs in only to set it up (docs/security.md "Signing in"): every power of this table
 * (decisions that move money, management, users) waits for it, while reading, exporting, its own
 * password, sessions and two-factor stay open.
 */
export function requireRole(user: RoleHolder, power: RolePower): void {
  if (!roleAllows(user.role, power)) throw new AppError('forbidden', REFUSALS[power], { role: user.role, needs: power });
  if (user.mustSetUpTotp) throw new AppError('totp_required', TOTP_REFUSAL, { needs: power });
}

const TOTP_REFUSAL = 'The merchant requires two-factor sign-in: set it up (enableTotp, then confirmTotp) before deciding payments or changing settings.';

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);
}
