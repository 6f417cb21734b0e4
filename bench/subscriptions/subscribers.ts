/**
 * One GraphQL subscription as a checkout page holds it: over SSE (one HTTP request) or graphql-ws
 * (one socket of its own). `open*` resolves at the first event; `onEnd` says how the stream ended
 * unless the subscriber closed it itself.
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';

export type Payload = { data?: unknown; errors?: unknown[] };
export type Handlers = {
  onEvent: (payload: Payload) => void;
  /** `complete`: the server completed it; anything else is an error (reset, close, refusal). */
  onEnd: (how: 'complete' | string) => void;
};
export type Subscriber = { close: () => void };

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

export function openSse(baseUrl: string, query: string, variables: Record<string, unknown>, h: Handlers): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    let first = true;
    let ended = false;
    const end = (how: string) => {
      if (ended) return;
      ended = true;
      if (first) reject(new Error(`SSE ended before its first event: ${how}`));
      else h.onEnd(how);
    };
    const body = JSON.stringify({ query, variables });
    const req = request(`${baseUrl}/graphql`, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode !== 200) return end(`SSE answered ${res.statusCode}`);
      res.setEncoding('utf8');
      let seen = '';
      res.on('data', (chunk: string) => {
        seen += chunk;
        let cut;
        while ((cut = seen.indexOf('\n\n')) >= 0) {
          const block = seen.slice(0, cut);
          seen = seen.slice(cut + 2);
          if (block.startsWith('event: complete')) end('complete');
          const data = block.startsWith('event: next') ? block.slice(block.indexOf('data: ') + 6) : null;
          if (data === null) continue;
          h.onEvent(JSON.parse(data) as Payload);
          if (first) {
            first = false;
            resolve(sub);
          }
        }
      });
      res.on('close', () => end('SSE connection closed before `complete`'));
    });
    const sub: Subscriber = {
      close: () => {
        ended = true;
        req.destroy();
      },
    };
    req.on('error', (err) => end(`SSE: ${err.message}`));
    req.end(body);
  });
}

export function openWs(baseUrl: string, query: string, variables: Record<string, unknown>, h: Handlers): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    let first = true;
    let ended = false;
    const end = (how: string) => {
      if (ended) return;
      ended = true;
      if (first) reject(new Error(`WebSocket ended before its first event: ${how}`));
      else h.onEnd(how);
      if (socket.readyState === socket.OPEN) socket.close(1000, 'Normal Closure');
    };
    const sub: Subscriber = {
      close: () => {
        ended = true;
        socket.close(1000, 'Normal Closure');
      },
    };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; payload?: Payload };
      if (msg.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
      else if (msg.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      else if (msg.type === 'error') end(`graphql-ws error: ${JSON.stringify(msg.payload).slice(0, 200)}`);
      else if (msg.type === 'complete') end('complete');
      else if (msg.type === 'next') {
        h.onEvent(msg.payload!);
        if (first) {
          first = false;
          resolve(sub);
        }
      }
    });
    socket.on('error', (err) => end(`WebSocket: ${err.message}`));
    socket.on('close', (code) => end(`WebSocket closed (${code}) before \`complete\``));
  });
}
