import net from 'node:net';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';

type RawResponse = { status: number; headers: Record<string, string>; body: Buffer };

/**
 * One keep-alive connection driven by hand, as a client's pool holds it: requests written on one
 * socket, one after the other, with whatever pause the test wants between them (a client's own idle
 * timer never interferes).
 */
class Connection {
  private buffer = Buffer.alloc(0);
  private closed = false;
  private wake: () => void = () => undefined;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async open(baseUrl: string): Promise<Connection> {
    const { hostname, port } = new URL(baseUrl);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new Connection(socket);
  }

  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    const text = JSON.stringify(body);
    const lines = [`POST ${path} HTTP/1.1`, 'Host: localhost', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n${text}`);
    return this.readResponse();
  }

  close(): void {
    this.socket.destroy();
  }

  private async bytes(until: () => number): Promise<number> {
    for (;;) {
      const at = until();
      if (at >= 0) return at;
      if (this.closed) throw new Error('the server closed the connection before answering (other side closed)');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private async readResponse(): Promise<RawResponse> {
    const headEnd = await this.bytes(() => this.buffer.indexOf('\r\n\r\n'));
    const [statusLine, ...headerLines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    this.buffer = this.buffer.subarray(headEnd + 4);
    const parts: Buffer[] = [];
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = await this.bytes(() => this.buffer.indexOf('\r\n'));
        const size = parseInt(this.buffer.subarray(0, lineEnd).toString('latin1'), 16);
        await this.bytes(() => (this.buffer.length >= lineEnd + 2 + size + 2 ? 0 : -1));
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        this.buffer = this.buffer.subarray(lineEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      await this.bytes(() => (this.buffer.length >= length ? 0 : -1));
      parts.push(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
    }
    return { status: Number(statusLine!.split(' ')[1]), headers, body: Buffer.concat(parts) };
  }
}

let app: TestApp;
const connections: Connection[] = [];
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  for (const c of connections) c.close();
  await app.stop();
});

async function connect(): Promise<Connection> {
  const c = await Connection.open(app.baseUrl);
  connections.push(c);
  return c;
}

const INTROSPECTION = { query: getIntrospectionQuery() };
const TYPENAME = { query: '{ __typename }' };

describe('keep-alive connections (issue 22: "other side closed" after an introspection answer)', () => {
  it('a large answer leaves the connection open: the next request on it is answered, compressed or not', async () => {
    for (const encoding of ['gzip', 'identity']) {
      // Given a connection that has just carried an introspection answer of ~170 KB
      const c = await connect();
      const big = await c.post('/graphql', INTROSPECTION, { 'Accept-Encoding': encoding });
      expect(big.status).toBe(200);
      expect(big.body.length).toBeGreaterThan(encoding === 'gzip' ? 10_000 : 100_000);
      expect(big.headers.connection).not.toBe('close');

      // When the client sends its next request on it at once
      const next = await c.post('/graphql', TYPENAME, { 'Accept-Encoding': encoding });

      // Then it is answered on the same connection
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body.toString())).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('a client that reuses its connection after a pause past Node’s default idle timeout (5 s + 1 s) is answered', async () => {
    // Given a connection whose client, busy with the introspection answer, stays silent for 6.5 s
    const c = await connect();
    const big = await c.post('/graphql', INTROSPECTION);
    await new Promise((r) => setTimeout(r, 6_500));

    // When it sends its next request on the connection it kept
    const next = await c.post('/graphql', TYPENAME);

    // Then the server had kept it open and answers; it tells clients it keeps idle connections 65 s
    expect(next.status).toBe(200);
    expect(big.headers['keep-alive']).toBe('timeout=65');
  }, 20_000);
});
