// A minimal shop server on the TypeScript SDK (sdk/typescript, @cardgateway/sdk): create a payment
// and redirect, the payer's return, the webhook, verify, refund. Node 22.18+ runs it as it is:
//   GATEWAY=https://pay.example.com API_KEY=sk_test_… WEBHOOK_SECRET=whsec_… PORT=8080 node sdk-shop.ts
// test/sdk/examples.test.ts runs it against a real service; docs/integration.md shows its parts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Gateway, GatewayError, verifyWebhook, WebhookSignatureError } from '@cardgateway/sdk';

const gateway = new Gateway({ baseUrl: process.env.GATEWAY!, apiKey: process.env.API_KEY! });

// Your database. An order keeps the amount and unit it was priced in, and its payment's id.
type Order = { id: string; amount: number; currency: 'IRR' | 'IRT'; paymentId?: string; paid: boolean };
const orders = new Map<string, Order>();
const seenDeliveries = new Set<string>(); // also your database: a delivery may arrive twice

// 1. Create the payment (the order id as the idempotency key: a retry never makes a second one),
// 2. then redirect the payer to checkoutUrl.
async function startPayment(order: Order): Promise<string> {
  const payment = await gateway.payments.create(
    { amount: order.amount, currency: order.currency, callbackUrl: `${process.env.SHOP_URL}/return`, orderId: order.id },
    { idempotencyKey: `order-${order.id}` },
  );
  order.paymentId = payment.id;
  return payment.checkoutUrl; // answer 303 with Location: checkoutUrl
}

// 5. Verify with the amount you stored; fulfil only when verified, and only once.
async function fulfilIfPaid(order: Order): Promise<boolean> {
  try {
    const result = await gateway.payments.verify(order.paymentId!, { amount: order.amount, currency: order.currency });
    if (!result.verified) return false; // not confirmed (yet): wait for the webhook
    if (result.orderId !== order.id) return false; // not this order's payment
    if (!order.paid) {
      order.paid = true; // ship it here, in the same transaction as this mark
    }
    return true;
  } catch (e) {
    // amount_mismatch: the payer paid for something else; never fulfil.
    if (e instanceof GatewayError && e.code === 'amount_mismatch') return false;
    throw e;
  }
}

// 4. The payer's return: ?service_token=…&service_status=…&service_ref=…&order_id=…
// service_status is typed by whoever has the URL: only verify says whether it is paid.
async function onReturn(query: URLSearchParams): Promise<boolean> {
  const order = orders.get(query.get('order_id') ?? '');
  if (!order || order.paymentId !== query.get('service_ref')) return false;
  return fulfilIfPaid(order);
}

// 6. The webhook: check the signature on the raw body, deduplicate, then verify.
async function onWebhook(rawBody: Uint8Array, signature: string | undefined): Promise<number> {
  let event;
  try {
    event = await verifyWebhook(rawBody, signature, process.env.WEBHOOK_SECRET!);
  } catch (e) {
    if (e instanceof WebhookSignatureError) return 400; // not ours, or stale: do nothing
    throw e;
  }
  if (seenDeliveries.has(event.deliveryId)) return 200;
  seenDeliveries.add(event.deliveryId);
  // Device events and event types added later: acknowledge and ignore.
  if (!event.event.startsWith('payment.') || !event.paymentId) return 200;
  // sendTestWebhook's sample (orderId "test-order", a payment that does not exist) is no order of
  // ours either: acknowledged here, never verified.
  const order = orders.get(event.orderId ?? '');
  if (!order || order.paymentId !== event.paymentId) return 200;
  await fulfilIfPaid(order);
  return 200; // within 10 s, or the delivery is retried
}

// Refund: record the money you paid back from your bank (a new key per refund; a retry of it
// records it once).
async function refund(order: Order, amountRials: string, card: string, reference: string) {
  const recorded = await gateway.payments.refunds.create(
    order.paymentId!,
    { amount: amountRials, destinationCard: card, reference },
    { idempotencyKey: `refund-${order.id}-${reference}` },
  );
  const { items } = await gateway.payments.refunds.list(order.paymentId!);
  return { recorded, refunds: items.length };
}

// The HTTP side (any framework does the same). Errors of the API reach the log with their code.
async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://shop');
  if (req.method === 'GET' && url.pathname === '/buy') {
    const order: Order = { id: url.searchParams.get('order')!, amount: Number(url.searchParams.get('amount')), currency: 'IRT', paid: false };
    orders.set(order.id, order);
    res.writeHead(303, { location: await startPayment(order) }).end();
  } else if (req.method === 'GET' && url.pathname === '/return') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end((await onReturn(url.searchParams)) ? 'paid' : 'not paid');
  } else if (req.method === 'POST' && url.pathname === '/hooks/gateway') {
    const status = await onWebhook(await readBody(req), req.headers['x-service-signature'] as string | undefined);
    res.writeHead(status).end();
  } else if (req.method === 'POST' && url.pathname === '/refund') {
    const order = orders.get(url.searchParams.get('order') ?? '');
    if (!order) return void res.writeHead(404).end();
    const done = await refund(order, url.searchParams.get('amount')!, url.searchParams.get('card')!, url.searchParams.get('reference')!);
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(done));
  } else if (req.method === 'GET' && url.pathname.startsWith('/orders/')) {
    const order = orders.get(decodeURIComponent(url.pathname.slice('/orders/'.length)));
    res.writeHead(order ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(order ?? null));
  } else {
    res.writeHead(404).end();
  }
}

const server = createServer((req, res) => {
  route(req, res).catch((e: unknown) => {
    console.error(e instanceof GatewayError ? `gateway ${e.status} ${e.code}: ${e.message} ${JSON.stringify(e.details)}` : e);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  const address = server.address();
  console.log(`shop listening on port ${typeof address === 'object' && address ? address.port : process.env.PORT}`);
});
