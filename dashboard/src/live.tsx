import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useSubscription } from 'urql';
import { PaymentRowFragment } from './fragments.js';
import { graphql, type ResultOf } from './graphql.js';

/**
 * One live stream for the whole app: every payment event of the merchant's projects (SSE on
 * /graphql). Pages listen to it to keep rows current without reloading; the header's badge
 * recounts from it.
 */
const PaymentEvents = graphql(
  `
    subscription DashboardPaymentEvents {
      paymentEvents {
        id
        type
        createdAt
        payment {
          ...PaymentRow
        }
      }
    }
  `,
  [PaymentRowFragment],
);
export type PaymentEvent = ResultOf<typeof PaymentEvents>['paymentEvents'];
/** An event, or null: "the stream (re)connected, events may have been missed: read again". */
type Listener = (event: PaymentEvent | null) => void;
const RESYNC_MS = 1500;

const LiveContext = createContext<{ listen: (fn: Listener) => () => void; connected: boolean }>({
  listen: () => () => {},
  connected: false,
});

export function LiveProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [result, resubscribe] = useSubscription({ query: PaymentEvents }, (_prev: unknown, data: ResultOf<typeof PaymentEvents>) => {
    for (const fn of listeners.current) fn(data.paymentEvents);
    return data;
  });
  const started = useRef(false);
  if (result.fetching) started.current = true;
  // A stream that ended (a restart of the server, a dropped connection) is opened again.
  useEffect(() => {
    if (result.fetching || !started.current) return;
    const timer = window.setTimeout(() => resubscribe(), 3000);
    return () => window.clearTimeout(timer);
  }, [result.fetching, result.error, resubscribe]);
  const connected = result.fetching && !result.error;
  // Between a page's first read and the server registering the stream, an event can slip by.
  useEffect(() => {
    if (!connected) return;
    const timer = window.setTimeout(() => listeners.current.forEach((fn) => fn(null)), RESYNC_MS);
    return () => window.clearTimeout(timer);
  }, [connected]);
  const value = useMemo(
    () => ({
      listen: (fn: Listener) => {
        listeners.current.add(fn);
        return () => void listeners.current.delete(fn);
      },
      connected,
    }),
    [connected],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** Calls `fn` with every payment event while the component is mounted. */
export function usePaymentEvents(fn: Listener): void {
  const { listen } = useContext(LiveContext);
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => listen((event) => ref.current(event)), [listen]);
}

export const useLiveConnected = () => useContext(LiveContext).connected;
