import { createContext, useContext } from 'react';

/**
 * What the signed-in user may do (CONTRACT "Merchant users"): an owner everything, staff decide
 * exceptions, a viewer reads and exports. The server enforces it (403 forbidden); the pages only
 * leave out what the role cannot use. No user (a merchant key) counts as an owner.
 */
export type Role = 'owner' | 'staff' | 'viewer';
export const RoleContext = createContext<Role | null>(null);

export function useRole(): { role: Role | null; canDecide: boolean; isOwner: boolean } {
  const role = useContext(RoleContext);
  return { role, canDecide: role !== 'viewer', isOwner: role === null || role === 'owner' };
}
