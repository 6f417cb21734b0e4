import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { at: number; headers: IncomingMessage['headers']; body: string; json: any; path: string };

/** A real local HTTP receiver for webhooks; `respond` decides each answer (default 200). */
export class Receiver {
  readonly received: Received[] = [];
  respond: (req: Received, res: ServerResponse) => void = (_r, res) => res.writeHead(200).end('ok');
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          json = null;
        }
        const r: Received = { at: Date.now(), headers: req.headers, body, json, path: req.url ?? '' };
        this.received.push(r);
        this.respond(r, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until) throw new Error(`receiver got ${this.received.length} of ${count} requests`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
