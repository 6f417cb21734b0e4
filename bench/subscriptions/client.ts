/**
 * The subscribers of `npm run bench -- subscriptions`, in a process of their own (spawned with an
 * IPC channel) so they never share an event loop with the service measured. Each `open` opens one
 * `checkoutStatus` subscription per token and answers once every one has had its first event;
 * `close` closes them all from the client side.
 */
import { openSse, openWs, type Subscriber } from './subscribers.js';

export type Transport = 'sse' | 'ws';
export type ClientRequestMessage =
  | { id: number; kind: 'open'; transport: Transport; baseUrl: string; tokens: string[]; lanes: number }
  | { id: number; kind: 'close' };
export type ClientStatus = { open: number; events: number; failed: number; errors: string[] };

const QUERY = 'subscription($t: String!) { checkoutStatus(token: $t) { status amountFinal expiresAt } }';

const open = new Set<Subscriber>();
const status: ClientStatus = { open: 0, events: 0, failed: 0, errors: [] };

function noteError(what: string) {
  status.failed++;
  if (status.errors.length < 5) status.errors.push(what);
}

async function openAll(m: Extract<ClientRequestMessage, { kind: 'open' }>) {
  Object.assign(status, { events: 0, failed: 0, errors: [] });
  const started = Date.now();
  let next = 0;
  const one = m.transport === 'sse' ? openSse : openWs;
  await Promise.all(
    Array.from({ length: m.lanes }, async () => {
      while (next < m.tokens.length) {
        const token = m.tokens[next++]!;
        const handlers = {
          onEvent: (p: { errors?: unknown[] }) => {
            status.events++;
            if (p.errors) noteError(JSON.stringify(p.errors).slice(0, 200));
          },
          onEnd: (how: string) => {
            open.delete(sub!);
            noteError(`a subscription ended without the client closing it: ${how}`);
          },
        };
        const sub: Subscriber | undefined = await one(m.baseUrl, QUERY, { t: token }, handlers).catch((err: Error) => {
          noteError(`open: ${err.message}`);
          return undefined;
        });
        if (sub) open.add(sub);
      }
    }),
  );
  return { ms: Date.now() - started, open: open.size };
}

async function closeAll() {
  const all = [...open];
  open.clear();
  for (const s of all) s.close();
  // Let the closes reach the server before answering.
  await new Promise((r) => setTimeout(r, 500));
  return { closed: all.length };
}

process.on('message', (m: ClientRequestMessage) => {
  void (async () => {
    const answer = m.kind === 'open' ? await openAll(m) : await closeAll();
    status.open = open.size;
    process.send!({ id: m.id, ...answer, status });
  })();
});
process.send!({ id: 0, ready: true });
