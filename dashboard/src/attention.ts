import { useEffect } from 'react';
import { graphql } from './graphql.js';
import { usePaymentEvents } from './live.js';
import { useDeferredQuery } from './query.js';
import { useMode } from './router.js';
import { mustSetUp } from './two-factor.js';

/** What needs the merchant: deposits and payments waiting for a decision, phones offline. */
const Attention = graphql(`
  query DashboardAttention($sandbox: Boolean!) {
    reviewQueue(sandbox: $sandbox) {
      deposits
      payments
      total
    }
    viewer {
      kind
      user {
        id
        email
        role
        totpEnabled
      }
      merchant {
        id
        name
        requireTotp
        devices {
          id
          name
          online
          revoked
          lastSeenAt
        }
      }
    }
  }
`);

const POLL_MS = 30_000;

/**
 * What waits for a decision on the side shown (live, or test under /dashboard/test), from the API's
 * one count (reviewQueue): the badge and the overview's "needing review" read this same query.
 */
export function useAttention() {
  const sandbox = useMode() === 'test';
  const [result, refetch] = useDeferredQuery({ query: Attention, variables: { sandbox }, requestPolicy: 'cache-and-network' });
  useEffect(() => {
    const timer = window.setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => window.clearInterval(timer);
  }, [refetch]);
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const data = result.data;
  const count = data?.reviewQueue.total ?? 0;
  const more = false;
  const offline = (data?.viewer?.merchant?.devices ?? []).filter((d) => !d.online && !d.revoked);
  const user = data?.viewer?.user ?? null;
  // Whether this user must set up two-factor before anything else (undefined until loaded).
  const mustSetUpTotp = data ? mustSetUp(data) : undefined;
  return { count, more, queue: data?.reviewQueue ?? null, offline, merchantName: data?.viewer?.merchant?.name ?? null, user, loaded: data !== undefined, mustSetUpTotp };
}
