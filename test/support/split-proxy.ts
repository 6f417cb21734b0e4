import net from 'node:net';

/**
 * A TCP stand-in between a pg client and PostgreSQL that forwards the server's ErrorResponse
 * message ('E') and whatever follows it in two writes, `gapMs` apart: the ReadyForQuery that closes
 * a failed statement then reaches the client in a later packet, as it may behind PgBouncer or a slow
 * network. Everything else passes through as it came.
 */
export async function startSplitProxy(target: { host: string; port: number }, gapMs = 30): Promise<{ url: (databaseUrl: string) => string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    client.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    let chain = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Whole messages only: a type byte and a length that counts itself.
      let end = 0;
      const parts: Buffer[] = [];
      while (pending.length - end >= 5) {
        const length = pending.readInt32BE(end + 1);
        if (pending.length - end < 1 + length) break;
        const type = String.fromCharCode(pending[end]!);
        end += 1 + length;
        if (type === 'E') {
          parts.push(pending.subarray(0, end));
          pending = pending.subarray(end);
          end = 0;
        }
      }
      parts.push(pending.subarray(0, end));
      pending = pending.subarray(end);
      for (const [index, part] of parts.entries()) {
        if (part.length === 0) continue;
        // The first part runs up to an ErrorResponse (or is all there was); the rest follow one.
        const afterError = index > 0;
        chain = chain.then(async () => {
          if (afterError) await new Promise((r) => setTimeout(r, gapMs));
          if (!client.destroyed) client.write(part);
        });
      }
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (databaseUrl) => {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
