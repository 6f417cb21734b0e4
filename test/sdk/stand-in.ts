import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = 'drop' | 'proxy' | 'forward-then-503' | 'extend' | 409 | 429 | 500 | 502 | 503;

/**
 * A real HTTP stand-in in front of the service, for the SDKs' retry tests. Each request takes the
 * next step of `plan`: 'drop' closes the connection unanswered; a status answers it with the error
 * envelope (409 `idempotency_conflict`, 429 with `Retry-After: 1`); 'forward-then-503' lets the service do the work and then
 * loses its answer (503); 'extend' forwards and answers as a later /v1 may (a field added, a
 * `status` the client has never seen); 'proxy' (also once the plan is used up) forwards and relays.
 * `seen` records each request's method, path and Idempotency-Key.
 *
 * Tests in other languages drive it over HTTP: `PUT /__stand-in/plan` (a JSON array of steps,
 * clearing `seen`) and `GET /__stand-in/seen`.
 */
export class StandIn {
  readonly seen: { method: string; path: string; key: string | null }[] = [];
  plan: Step[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  setPlan(plan: Step[]): void {
    this.plan = [...plan];
    this.seen.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url === '/__stand-in/plan' && req.method === 'PUT') {
      this.setPlan(JSON.parse(body.toString('utf8')) as Step[]);
      res.writeHead(204).end();
      return;
    }
    if (req.url === '/__stand-in/seen') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.seen));
      return;
    }
    this.seen.push({ method: req.method!, path: req.url!, key: (req.headers['idempotency-key'] as string | undefined) ?? null });
    const step = this.plan.shift() ?? 'proxy';
    if (step === 'drop') {
      req.socket.destroy();
      return;
    }
    if (typeof step === 'number') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step === 429) headers['retry-after'] = '1';
      // 409: what the service answers a key whose first request is still running.
      const code = step === 409 ? 'idempotency_conflict' : step === 429 ? 'rate_limited' : step === 503 ? 'unavailable' : 'internal_error';
      res.writeHead(step, headers).end(JSON.stringify({ error: { code, message: 'stand-in', details: {} }, details: {} }));
      return;
    }
    const answer = await this.forward(req, body);
    if (step === 'forward-then-503') {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'unavailable', message: 'answer lost', details: {} }, details: {} }));
      return;
    }
    if (step === 'extend' && answer.status < 300) {
      const later = { ...(JSON.parse(answer.body.toString('utf8')) as object), status: 'on_hold', addedLater: { nested: [1, 2] } };
      res.writeHead(answer.status, { 'content-type': 'application/json', deprecation: '@1796083200', sunset: 'Wed, 01 Dec 2027 00:00:00 GMT' }).end(JSON.stringify(later));
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  }

  private forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; body: Buffer }> {
    const target = new URL(req.url!, this.target);
    return new Promise((resolve, reject) => {
      const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => resolve({ status: answer.statusCode!, body: Buffer.concat(parts) }));
      });
      out.on('error', reject);
      out.end(body);
    });
  }
}
