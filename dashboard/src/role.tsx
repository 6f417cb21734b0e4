import { createContext, useContext } from 'react';
import type { EnumOf } from './graphql.js';
import { ROLE } from './labels.js';

/**
 * What the signed-in user may do (docs/dashboard.md "Users and roles"): an owner everything, staff decide
 * exceptions, a viewer reads and exports. The server enforces it (403 forbidden); the pages only
 * leave out what the role cannot use. No user (a merchant key) counts as an owner.
 */
export type Role = EnumOf<'UserRole'>;
export const RoleContext = createContext<Role | null>(null);

export function useRole(): { role: Role | null; canDecide: boolean; isOwner: boolean } {
  const role = useContext(RoleContext);
  return { role, canDecide: role !== 'viewer', isOwner: role === null || role === 'owner' };
}

/** Why a page shows no decision forms: a viewer reads and exports only. */
export function ReadOnlyNote() {
  const { role } = useRole();
  if (role !== 'viewer') return null;
  return (
    <p className="muted" id="read-only-note">
      نقش شما «{ROLE[role]}» است: می‌توانید ببینید و خروجی بگیرید؛ تصمیم دربارهٔ پرداخت‌ها و واریزها با مالک یا کارمند است.
    </p>
  );
}

/** Why a page shows no forms to change it: projects, keys, phones, cards, links and webhooks are the owner's. */
export function OwnerOnlyNote() {
  const { role, isOwner } = useRole();
  if (isOwner || !role) return null;
  return (
    <p className="muted" id="owner-only-note">
      نقش شما «{ROLE[role]}» است: این بخش را می‌بینید؛ تغییر آن با مالک حساب است.
    </p>
  );
}
