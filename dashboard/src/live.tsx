import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useSubscription } from 'urql';
import { isUnauthorized } from './client.js';
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

// Two contexts: pages listen through a value that never changes, so the stream connecting or
// dropping re-renders only what shows its state (the header), not every page.
const ListenContext = createContext<(fn: Listener) => () => void>(() => () => {});
const ConnectedContext = createContext(false);

export function LiveProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [result, resubscribe] = useSubscription({ query: PaymentEvents }, (_prev: unknown, data: ResultOf<typeof PaymentEvents>) => {
    for (const fn of listeners.current) fn(data.paymentEvents);
    return data;
  });
  const started = useRef(false);
  if (result.fetching) started.current = true;
  // urql keeps a stream's last error on the result after it is opened again: an error counts until
  // the stream it ended is replaced.
  const replaced = useRef<unknown>(null);
  const error = result.error && result.error !== replaced.current ? result.error : undefined;
  // A stream that ended (a restart of the server, a dropped connection, an error sent on a stream
  // the server then leaves open) is opened again.
  useEffect(() => {
    if ((result.fetching && !error) || !started.current) return;
    const timer = window.setTimeout(() => {
      replaced.current = error ?? null;
      resubscribe();
    }, 3000);
    return () => window.clearTimeout(timer);
  }, [result.fetching, error, resubscribe]);
  // Ended because the session's credential changed (a new role, a password change elsewhere,
  // sign-out): every page and the header read again at once, so a new role shows (or its
  // refusals start) and an ended session goes to the login page.
  const ended = error && isUnauthorized(error) ? error : null;
  useEffect(() => {
    if (ended) listeners.current.forEach((fn) => fn(null));
  }, [ended]);
  const connected = result.fetching && !error;
  // Between a page's first read and the server registering the stream, an event can slip by.
  useEffect(() => {
    if (!connected) return;
    const timer = window.setTimeout(() => listeners.current.forEach((fn) => fn(null)), RESYNC_MS);
    return () => window.clearTimeout(timer);
  }, [connected]);
  const listen = useCallback((fn: Listener) => {
    listeners.current.add(fn);
    return () => void listeners.current.delete(fn);
  }, []);
  return (
    <ListenContext.Provider value={listen}>
      <ConnectedContext.Provider value={connected}>{children}</ConnectedContext.Provider>
    </ListenContext.Provider>
  );
}

/** Calls `fn` with every payment event while the component is mounted. */
export function usePaymentEvents(fn: Listener): void {
  const listen = useContext(ListenContext);
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => listen((event) => ref.current(event)), [listen]);
}

export const useLiveConnected = () => useContext(ConnectedContext);
