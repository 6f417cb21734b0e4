// A minimal webhook receiver for the card-to-card gateway (Node 18+, no dependencies).
// Run: WEBHOOK_SECRET=whsec_... node docs/examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = process.env.WEBHOOK_SECRET;
const TOLERANCE_SECONDS = 5 * 60;
const seen = new Set(); // use your database in production: deliveries may arrive more than once

export function verify(header, rawBody, secret, nowSeconds = Date.now() / 1000) {
  const parts = String(header ?? '').split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  // Sign the raw bytes exactly as received: re-serialising parsed JSON changes them.
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .some(([, v]) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      if (!verify(req.headers['x-service-signature'], rawBody, SECRET)) {
        res.writeHead(400).end('bad signature');
        return;
      }
      const event = JSON.parse(rawBody);
      if (!seen.has(event.deliveryId)) {
        seen.add(event.deliveryId);
        // Do not trust the event alone for fulfilment: call POST /v1/payments/{paymentId}/verify.
        console.log(event.event, event.paymentId, event.status);
      }
      res.writeHead(200).end('ok'); // answer 2xx within 10 s, or the delivery is retried
    });
  }).listen(8080);
}
