import { useEffect } from 'react';
import { graphql } from './graphql.js';
import { usePaymentEvents } from './live.js';
import { useDeferredQuery } from './query.js';
import { mustSetUp } from './two-factor.js';

/** What needs the merchant: deposits and payments waiting for a decision, phones offline. */
const Attention = graphql(`
  query DashboardAttention {
    needsReview: bankMessages(status: needs_review, first: 50) {
      edges {
        node {
          id
        }
      }
      pageInfo {
        hasNextPage
      }
    }
    unmatched: bankMessages(status: unmatched, first: 50) {
      edges {
        node {
          id
        }
      }
      pageInfo {
        hasNextPage
      }
    }
    reviewPayments: payments(reviewRequired: true, first: 1) {
      totalCount
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

export function useAttention() {
  const [result, refetch] = useDeferredQuery({ query: Attention, requestPolicy: 'cache-and-network' });
  useEffect(() => {
    const timer = window.setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => window.clearInterval(timer);
  }, [refetch]);
  usePaymentEvents(() => refetch({ requestPolicy: 'network-only' }));
  const data = result.data;
  const count =
    (data?.needsReview.edges.length ?? 0) + (data?.unmatched.edges.length ?? 0) + (data?.reviewPayments.totalCount ?? 0);
  const more = Boolean(data?.needsReview.pageInfo.hasNextPage || data?.unmatched.pageInfo.hasNextPage);
  const offline = (data?.viewer?.merchant?.devices ?? []).filter((d) => !d.online && !d.revoked);
  const user = data?.viewer?.user ?? null;
  // Whether this user must set up two-factor before anything else (undefined until loaded).
  const mustSetUpTotp = data ? mustSetUp(data) : undefined;
  return { count, more, offline, merchantName: data?.viewer?.merchant?.name ?? null, user, loaded: data !== undefined, mustSetUpTotp };
}
