/** A GraphQL subscription over server-sent events (Yoga's distinct-connections mode), read with fetch. */
export type SseStream<T> = {
  values: T[];
  /** When each value arrived (ms), for latency figures. */
  received: number[];
  completed: () => boolean;
  closed: () => boolean;
  waitFor: (n: number, ms?: number) => Promise<T[]>;
  waitUntil: (done: () => boolean, what: string, ms?: number) => Promise<void>;
  stop: () => void;
};

export function subscribeSse<T>(baseUrl: string, query: string, variables: Record<string, unknown> = {}, authorization?: string): SseStream<T> {
  const values: T[] = [];
  const received: number[] = [];
  const controller = new AbortController();
  let completed = false;
  let closed = false;
  void (async () => {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (block.includes('event: complete')) completed = true;
        if (block.includes('event: next') && data) {
          received.push(Date.now());
          values.push(JSON.parse(data.slice(6)) as T);
        }
      }
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      closed = true;
    });
  const waitUntil = async (done: () => boolean, what: string, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!done()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(values)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    values,
    received,
    completed: () => completed,
    closed: () => closed,
    waitFor: async (n, ms) => {
      await waitUntil(() => values.length >= n, `${n} events`, ms);
      return values;
    },
    waitUntil,
    stop: () => controller.abort(),
  };
}
