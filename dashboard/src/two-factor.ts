import { useEffect, useSyncExternalStore } from 'react';
import { latinDigits } from './format.js';
import { graphql } from './graphql.js';
import { BASE, navigate } from './router.js';

/** Where a user sets up two-factor sign-in (and an owner requires it for everyone). */
export const SECURITY_PATH = '/security';

/** The signed-in user's two-factor state and whether their merchant requires it (the security page). */
export const TwoFactorState = graphql(`
  query DashboardTwoFactor {
    viewer {
      user {
        id
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

type TwoFactorData = { viewer: { user: { totpEnabled: boolean } | null; merchant: { requireTotp: boolean } | null } | null };

/** True when the merchant requires two-factor and this user has not set it up yet. */
export function mustSetUp(data: TwoFactorData | undefined): boolean {
  const user = data?.viewer?.user;
  return Boolean(user && data?.viewer?.merchant?.requireTotp && !user.totpEnabled);
}

/**
 * The latest answer to "must this user set up two-factor first?", from whichever read saw it last:
 * the shell's attention query (every page) or the security page's own. A refusal seen on one page
 * (403 totp_required) leads to the security page, whose fresh read then holds the user there
 * without waiting for the shell's next poll.
 */
let blocked = false;
const listeners = new Set<() => void>();

export function reportTwoFactor(mustSetUpNow: boolean): void {
  if (mustSetUpNow === blocked) return;
  blocked = mustSetUpNow;
  listeners.forEach((fn) => fn());
}

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Reports a read's answer once it is loaded (undefined: not loaded yet, nothing known). */
export function useReportTwoFactor(mustSetUpNow: boolean | undefined): void {
  useEffect(() => {
    if (mustSetUpNow !== undefined) reportTwoFactor(mustSetUpNow);
  }, [mustSetUpNow]);
}

/**
 * A user whose merchant requires two-factor and who has not set it up may only set it up (the API
 * refuses their decisions and settings with 403 totp_required): every other page sends them to
 * the security page, which says why.
 */
export function useTwoFactorGate(path: string): void {
  const mustSetUpNow = useSyncExternalStore(subscribe, () => blocked);
  useEffect(() => {
    if (mustSetUpNow && path !== SECURITY_PATH) navigate(`${BASE}${SECURITY_PATH}`, { replace: true });
  }, [mustSetUpNow, path]);
}

/** A code as typed: Persian or Arabic digits and spaces allowed, sent as six Latin digits. */
export function appCode(text: string): string {
  return latinDigits(text).replace(/[\s\u200c-]/g, '');
}

export const CODE_PATTERN = /^\d{6}$/;
