import { useEffect } from 'react';
import { useQuery } from 'urql';
import { latinDigits } from './format.js';
import { graphql } from './graphql.js';
import { BASE, navigate } from './router.js';

/** Where a user sets up two-factor sign-in (and an owner requires it for everyone). */
export const SECURITY_PATH = '/security';

/**
 * The signed-in user's two-factor state and whether their merchant requires it. The shell's gate
 * and the security page read this one document, so a refetch after confirming updates both.
 */
export const TwoFactorState = graphql(`
  query DashboardTwoFactor {
    viewer {
      user {
        id
        email
        role
        totpEnabled
      }
      merchant {
        id
        requireTotp
      }
    }
  }
`);

/** True when the merchant requires two-factor and this user has not set it up yet. */
export function mustSetUp(data: { viewer: { user: { totpEnabled: boolean } | null; merchant: { requireTotp: boolean } | null } | null } | undefined): boolean {
  const user = data?.viewer?.user;
  return Boolean(user && data?.viewer?.merchant?.requireTotp && !user.totpEnabled);
}

/**
 * A user whose merchant requires two-factor and who has not set it up may only set it up (the API
 * refuses their money decisions with 403 totp_required): every other page sends them to the
 * security page, which says why.
 */
export function useTwoFactorGate(path: string): void {
  const [result] = useQuery({ query: TwoFactorState });
  const blocked = mustSetUp(result.data);
  useEffect(() => {
    if (blocked && path !== SECURITY_PATH) navigate(`${BASE}${SECURITY_PATH}`, { replace: true });
  }, [blocked, path]);
}

/** A code as typed: Persian or Arabic digits and spaces allowed, sent as six Latin digits. */
export function appCode(text: string): string {
  return latinDigits(text).replace(/[\s\u200c-]/g, '');
}

export const CODE_PATTERN = /^\d{6}$/;
