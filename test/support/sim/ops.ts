import { expireDuePayments } from '../../../src/domain/payments/expiry-batch.js';
import { endOverdueLateWindows, expirePayment } from '../../../src/domain/payments/expiry.js';
import { gapCandidates } from '../../../src/domain/bank-messages/store/gaps.js';
import { gql, request, type HttpResult } from '../harness.js';
import { mellatDeposit } from '../sms.js';
import { FORGED_BALANCE_FLOOR, FORGER } from './invariants.js';
import { Prng } from './prng.js';
import { heartbeatAll, type SimPayment, type World } from './world.js';

/** A server error anywhere is a failure of the run, whatever the operation: no input may reach a 5xx (503 no_card_available aside, an answer docs/integration.md "7. Errors" lists). */
export class ServerFault extends Error {}

function checked(op: string, res: HttpResult): HttpResult {
  const refusedForCards = res.status === 503 && (res.body as { error?: { code?: string } } | undefined)?.error?.code === 'no_card_available';
  if (res.status >= 500 && !refusedForCards) throw new ServerFault(`${op}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  const errors = (res.body as { errors?: { extensions?: { code?: string } }[] } | undefined)?.errors;
  if (errors?.some((e) => e.extensions?.code === 'internal_error')) throw new ServerFault(`${op}: ${res.text.slice(0, 300)}`);
  return res;
}

const AMOUNTS = [100_000, 200_000, 300_000];

type Op = (w: World, r: Prng) => Promise<string>;

const anyPayment = (w: World, r: Prng): SimPayment | null => (w.payments.length ? r.pick(w.payments) : null);

async function gqlChecked(w: World, op: string, key: string, query: string, variables: Record<string, unknown>) {
  const res = await gql(w.app.baseUrl, query, variables, key);
  if (res.errors?.some((e) => e.extensions.code === 'internal_error')) throw new ServerFault(`${op}: ${JSON.stringify(res.errors)}`);
  return res;
}

const create: Op = async (w, r) => {
  const project = r.int(w.projects.length);
  const p = w.projects[project]!;
  const amount = r.pick(AMOUNTS);
  const res = checked('create', await request(w.app.baseUrl, 'POST', '/v1/payments', { token: p.apiKey, body: { amount, callbackUrl: 'https://shop.example.com/r' } }));
  if (res.status !== 201) return `create p${project} ${amount} → ${res.status} ${res.body?.error?.code}`;
  const row = await w.app.deps.prisma.payment.findUniqueOrThrow({ where: { id: res.body.id }, select: { cardId: true } });
  w.payments.push({ id: res.body.id, token: res.body.token, project, card: row.cardId, amountFinal: res.body.amountFinal, amountRequested: res.body.amountRequested });
  return `create p${project} ${amount} → ${res.body.id} ${res.body.amountFinal}`;
};

const checkoutAction = (action: 'cancel' | 'report'): Op => async (w, r) => {
  const p = anyPayment(w, r);
  if (!p) return `${action}: nothing yet`;
  const body = action === 'report' ? { payerCardLast4: '1234' } : undefined;
  const res = checked(action, await request(w.app.baseUrl, 'POST', `/v1/checkout/${p.token}/${action}`, { body }));
  return `${action} ${p.id} → ${res.status}`;
};

const projectAction = (action: 'verify' | 'reject'): Op => async (w, r) => {
  const p = anyPayment(w, r);
  if (!p) return `${action}: nothing yet`;
  const key = w.projects[p.project]!.apiKey;
  const res = checked(action, await request(w.app.baseUrl, 'POST', `/v1/payments/${p.id}/${action}`, { token: key, body: action === 'reject' ? { reason: 'sim' } : {} }));
  return `${action} ${p.id} → ${res.status}`;
};

const manualConfirm: Op = async (w, r) => {
  const p = anyPayment(w, r);
  if (!p) return 'confirm: nothing yet';
  const res = await gqlChecked(w, 'manual confirm', w.projects[p.project]!.apiKey, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "sim") { status } }`, { id: p.id });
  return `manual confirm ${p.id} → ${res.errors?.[0]?.extensions.code ?? res.data.confirmPaymentManually.status}`;
};

/**
 * The merchant's exceptions (issue 19), decided at random as a careless merchant might: a deposit
 * the engine left open attached to any payment of the merchant (sometimes of another amount, with
 * acceptAmount), with the project key or the merchant key.
 */
const attach: Op = async (w, r) => {
  const m = r.int(w.merchants.length);
  const open = await w.app.deps.prisma.bankMessage.findMany({
    where: { merchantId: w.merchants[m]!.id, direction: 'deposit', status: { in: ['unmatched', 'needs_review', 'matched', 'refunded'] } },
    select: { id: true },
    orderBy: { createdAt: 'desc' },
    take: 10,
  });
  const mine = w.payments.filter((p) => w.projects[p.project]!.merchant === m);
  if (open.length === 0 || mine.length === 0) return 'attach: nothing yet';
  const message = r.pick(open);
  const p = r.pick(mine);
  const key = r.chance(0.5) ? w.merchants[m]!.key : w.projects[p.project]!.apiKey;
  const res = await gqlChecked(w, 'attach', key, `mutation($m: ID!, $p: ID!, $a: Boolean) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: $a, note: "sim") { status } }`, {
    m: message.id,
    p: p.id,
    a: r.chance(0.5),
  });
  return `attach ${message.id} to ${p.id} → ${res.errors?.[0]?.extensions.code ?? res.data.attachBankMessage.status}`;
};

/** Money seen in the bank with no SMS at all: a late confirmation after the late window, with a note. */
const lateConfirm: Op = async (w, r) => {
  const p = anyPayment(w, r);
  if (!p) return 'late confirm: nothing yet';
  const res = await gqlChecked(w, 'late confirm', w.projects[p.project]!.apiKey, `mutation($id: ID!) { confirmPaymentManually(id: $id, late: true, note: "seen in the bank") { status confirmedLate } }`, { id: p.id });
  return `late confirm ${p.id} → ${res.errors?.[0]?.extensions.code ?? `${res.data.confirmPaymentManually.status} late=${res.data.confirmPaymentManually.confirmedLate}`}`;
};

/** A refund recorded, of any size (some more than what is left); several may race in one round. */
const refund: Op = async (w, r) => {
  const p = anyPayment(w, r);
  if (!p) return 'refund: nothing yet';
  const amount = r.pick([1_000, 50_000, 100_000, 250_000]);
  const res = checked('refund', await request(w.app.baseUrl, 'POST', `/v1/payments/${p.id}/refunds`, { token: w.projects[p.project]!.apiKey, body: { amount, destinationCard: '6037991234567893' } }));
  return `refund ${amount} of ${p.id} → ${res.status} ${res.body?.error?.code ?? ''}`;
};

/** A deposit that belongs to no payment paid back (or an attempt on one that does). */
const refundMessage: Op = async (w, r) => {
  const m = r.int(w.merchants.length);
  const open = await w.app.deps.prisma.bankMessage.findMany({ where: { merchantId: w.merchants[m]!.id, direction: 'deposit' }, select: { id: true }, orderBy: { createdAt: 'desc' }, take: 10 });
  if (open.length === 0) return 'refund message: nothing yet';
  const message = r.pick(open);
  const res = await gqlChecked(w, 'refund message', w.merchants[m]!.key, `mutation($id: ID!) { refundBankMessage(messageId: $id, input: { destinationSheba: "IR820540102680020817909002" }) { id } }`, { id: message.id });
  return `refund message ${message.id} → ${res.errors?.[0]?.extensions.code ?? 'refunded'}`;
};

/** How a phone or forwarder may spell one account: in full, shortened, masked, or as the card's last 4 digits. */
function respell(body: string, account: string, r: Prng): string {
  const spelling = r.pick([account, account.slice(-8), `****${account.slice(-4)}`, account.slice(-4)]);
  return body.replace(`حساب${account}`, `حساب${spelling}`);
}

/**
 * A real bank SMS: exact, base amount, wrong, usually from the card's phone, sometimes from another;
 * or one already sent again: the same request, another receivedAt, or the account spelled otherwise.
 */
const realSms: Op = async (w, r) => {
  const kind = r.weighted({ exact: 5, base: 2, wrong: 1, duplicate: 1, resend: 1, respelled: 1, late: 2, afterLate: 3 });
  if ((kind === 'duplicate' || kind === 'resend' || kind === 'respelled') && w.sent.length > 0) {
    const again = r.pick(w.sent);
    const body = kind === 'respelled' ? respell(again.body, again.account, r) : again.body;
    const receivedAt = kind === 'duplicate' ? again.receivedAt : new Date(Date.now() + r.int(3_600_000)).toISOString();
    const res = checked('sms again', await request(w.app.baseUrl, 'POST', '/v1/device/messages', { token: w.devices[again.device]!.token, body: { sender: 'BankMellat', body, receivedAt } }));
    return `sms ${kind} on d${again.device} → ${res.status} ${res.body?.status}`;
  }
  // Mostly live payments (what real SMS are for), sometimes a sandbox one on a shared phone; `late`
  // and `afterLate` pick, from the database's view, one past its deadline or past its late window.
  const live = w.payments.filter((x) => !w.projects[x.project]!.sandbox);
  let p = live.length > 0 && r.chance(0.75) ? r.pick(live) : anyPayment(w, r);
  if (kind === 'late' || kind === 'afterLate') {
    const now = new Date();
    // Live payments (what real money settles), mostly ones whose expiry has not run yet: the case
    // where a lagging queue leaves a payment pending past its deadline or its late window.
    const stillPending = r.chance(0.7) ? { status: 'pending' } : {};
    const due = await w.app.deps.prisma.payment.findMany({
      where: { sandbox: false, ...stillPending, ...(kind === 'late' ? { expiresAt: { lte: now }, lateUntil: { gte: now } } : { lateUntil: { lt: now } }) },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    });
    const ids = new Set(due.map((d) => d.id));
    const candidates = w.payments.filter((x) => ids.has(x.id));
    p = candidates.length > 0 ? r.pick(candidates) : p;
  }
  if (!p) return 'sms: nothing yet';
  const card = w.cards.find((c) => c.id === p.card)!;
  const phones = w.devices.map((d, i) => ({ d, i })).filter((x) => x.d.merchant === w.projects[card.project]!.merchant);
  const fromCardsPhone = kind === 'late' || kind === 'afterLate' || r.chance(0.8);
  const device = card.device !== null && fromCardsPhone ? card.device : r.pick(phones).i;
  const amount = BigInt(kind === 'base' ? p.amountRequested : kind === 'wrong' ? String(BigInt(p.amountFinal) + 1_000_000n + BigInt(r.int(9)) * 10n) : p.amountFinal);
  // Balances chain per account, as the bank's would. The bank texts the card's own phone; a copy
  // on another phone is a mis-forward, which does not move the account in this world.
  const balance = (w.balances.get(card.account) ?? 50_000_000n) + amount;
  if (device === card.device) w.balances.set(card.account, balance);
  const body = mellatDeposit({ account: card.account, amount, balance: Number(balance) });
  const receivedAt = new Date().toISOString();
  w.sent.push({ device, body, receivedAt, account: card.account });
  const res = checked('sms', await request(w.app.baseUrl, 'POST', '/v1/device/messages', { token: w.devices[device]!.token, body: { sender: 'BankMellat', body, receivedAt } }));
  return `sms ${kind} ${amount} for ${p.id} on d${device} → ${res.status} ${res.body?.status}`;
};

/**
 * Anyone can text a merchant's phone: a "deposit" of a live payment's exact amount from a personal
 * number, or from the bank's sender id with a balance the forger cannot know (FORGED_BALANCE_FLOOR
 * and up), or with no balance line; its account spelled any way. Never confirms anything.
 */
const forgedSms: Op = async (w, r) => {
  const live = w.payments.filter((x) => !w.projects[x.project]!.sandbox);
  if (live.length === 0) return 'forged sms: nothing yet';
  const p = r.pick(live);
  const card = w.cards.find((c) => c.id === p.card)!;
  if (card.device === null) return 'forged sms: card has no phone';
  // Trust on first use (docs/security.md): a forger with the bank's sender id is caught by the
  // balance chain only once the card has one, so the bank-sender forgeries wait for it.
  const anchored = await w.app.deps.prisma.bankMessage.count({ where: { cardId: card.id, trusted: true, balance: { not: null } } });
  const kind = anchored > 0 ? r.weighted({ personal: 2, wrongBalance: 2, noBalance: 1 }) : 'personal';
  const balance = kind === 'noBalance' ? undefined : FORGED_BALANCE_FLOOR + BigInt(r.int(1_000_000)) * 10n;
  const body = respell(mellatDeposit({ account: card.account, amount: p.amountFinal, balance }), card.account, r);
  const sender = kind === 'personal' ? FORGER : 'BankMellat';
  const res = checked('forged sms', await request(w.app.baseUrl, 'POST', '/v1/device/messages', { token: w.devices[card.device]!.token, body: { sender, body, receivedAt: new Date().toISOString() } }));
  return `forged sms ${kind} for ${p.id} → ${res.status} ${res.body?.status}`;
};

/**
 * Lost messages (docs/exceptions.md "Lost messages: balance gaps"): the bank texts a live
 * payment's deposit, the account's balance moves, and the SMS never reaches the gateway. Later it
 * may arrive after all, out of the bank's order (`lateLostSms`), or the merchant decides the gap it
 * left (`resolveGap`).
 */
const lostSms: Op = async (w, r) => {
  const live = w.payments.filter((x) => !w.projects[x.project]!.sandbox);
  if (live.length === 0) return 'lost sms: nothing yet';
  const p = r.pick(live);
  const card = w.cards.find((c) => c.id === p.card)!;
  if (card.device === null) return 'lost sms: card has no phone';
  const amount = BigInt(r.chance(0.8) ? p.amountFinal : p.amountRequested);
  const balance = (w.balances.get(card.account) ?? 50_000_000n) + amount;
  w.balances.set(card.account, balance);
  w.lost.push({ device: card.device, body: mellatDeposit({ account: card.account, amount, balance: Number(balance) }), receivedAt: new Date().toISOString(), account: card.account });
  return `lost sms ${amount} for ${p.id} (balance ${balance})`;
};

const lateLostSms: Op = async (w, r) => {
  if (w.lost.length === 0) return 'late lost sms: nothing lost';
  const late = w.lost.splice(r.int(w.lost.length), 1)[0]!;
  w.sent.push(late);
  const res = checked('late lost sms', await request(w.app.baseUrl, 'POST', '/v1/device/messages', { token: w.devices[late.device]!.token, body: { sender: 'BankMellat', body: late.body, receivedAt: new Date().toISOString() } }));
  return `late lost sms on d${late.device} → ${res.status} ${res.body?.status}`;
};

/**
 * The merchant decides a balance gap as a careless merchant might: one of its candidates, any
 * payment of the merchant, or a dismissal (sometimes without the note it needs); sometimes two
 * decisions on one gap race.
 */
const resolveGap: Op = async (w, r) => {
  const m = r.int(w.merchants.length);
  const gaps = await w.app.deps.prisma.balanceGap.findMany({ where: { merchantId: w.merchants[m]!.id, ...(r.chance(0.85) ? { status: 'open' } : {}) }, orderBy: { detectedAt: 'desc' }, take: 8 });
  if (gaps.length === 0) return 'resolve gap: none';
  const withCandidates = await Promise.all(gaps.map(async (g) => ({ g, c: await gapCandidates(w.app.deps.prisma, g) })));
  // Mostly a gap that could be a payment (the case money rides on), sometimes any.
  const likely = withCandidates.filter((x) => x.c.length > 0);
  const { g: gap, c: candidates } = likely.length > 0 && r.chance(0.75) ? r.pick(likely) : r.pick(withCandidates);
  const mine = w.payments.filter((p) => w.projects[p.project]!.merchant === m);
  const decide = async (rr: Prng) => {
    const choice = rr.weighted({ candidate: candidates.length > 0 ? 6 : 0, any: 1, dismiss: 2, bare: 1 });
    const paymentId = choice === 'candidate' ? rr.pick(candidates).id : choice === 'any' && mine.length > 0 ? rr.pick(mine).id : null;
    const key = rr.chance(0.5) || mine.length === 0 ? w.merchants[m]!.key : w.projects[rr.pick(mine).project]!.apiKey;
    const res = await gqlChecked(w, 'resolve gap', key, `mutation($id: ID!, $p: ID, $n: String) { resolveBalanceGap(id: $id, paymentId: $p, note: $n) { status } }`, {
      id: gap.id,
      p: paymentId,
      n: choice === 'bare' ? null : 'sim',
    });
    return `${choice} ${paymentId ?? ''} → ${res.errors?.[0]?.extensions.code ?? res.data.resolveBalanceGap.status}`;
  };
  const runs = r.chance(0.3) ? [decide(new Prng(r.int(2 ** 31))), decide(new Prng(r.int(2 ** 31)))] : [decide(r)];
  return `resolve gap ${gap.id} (${gap.amount}): ${(await Promise.all(runs)).join('; ')}`;
};

const simulate: Op = async (w, r) => {
  const sandboxPayments = w.payments.filter((p) => w.projects[p.project]!.sandbox);
  if (sandboxPayments.length === 0) return 'simulate: nothing yet';
  const p = r.pick(sandboxPayments);
  const outcome = r.weighted({ match: 4, base_amount: 1, wrong_amount: 1 });
  const res = checked('simulate', await request(w.app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: w.projects[p.project]!.apiKey, body: { paymentId: p.id, outcome } }));
  return `simulate ${outcome} ${p.id} → ${res.status} ${res.body?.bankMessage?.status ?? res.body?.message?.status ?? res.body?.error?.code ?? ''}`;
};

/** A live payment's key used on a simulation: always refused (403 sandbox_only). */
const simulateLive: Op = async (w, r) => {
  const live = w.payments.filter((p) => !w.projects[p.project]!.sandbox);
  if (live.length === 0) return 'simulate live: nothing yet';
  const p = r.pick(live);
  const res = checked('simulate live', await request(w.app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: w.projects[p.project]!.apiKey, body: { paymentId: p.id } }));
  if (res.status === 200) throw new ServerFault(`simulate live ${p.id}: a simulation touched a live payment`);
  return `simulate live ${p.id} → ${res.status}`;
};

/** A (possibly lagging) expiry of one payment whose deadline passed (`expirePayment`, the one-payment form). */
const expireOne: Op = async (w, r) => {
  const due = await w.app.deps.prisma.payment.findMany({ where: { status: 'pending', expiresAt: { lte: new Date() } }, select: { id: true } });
  if (due.length === 0) return 'expire: nothing due';
  const { id } = r.pick(due);
  return `expire ${id} → ${await expirePayment(w.app.deps, id)}`;
};

/** The two halves of the minute sweep, which other workers may run at any moment, in any order. */
const sweepExpiry: Op = async (w) => `expiry sweep → expired ${await expireDuePayments(w.app.deps)}`;
const sweepLateWindows: Op = async (w) => `late-window sweep → released ${await endOverdueLateWindows(w.app.deps)}`;

/** A phone dies: one of the merchant's live cards moves to its other phone (refused on a clash). */
const moveCard: Op = async (w, r) => {
  const card = r.pick(w.cards.filter((c) => c.device !== null));
  const merchant = w.projects[card.project]!.merchant;
  const other = w.devices.map((d, i) => ({ d, i })).find((x) => x.d.merchant === merchant && x.i !== card.device)!;
  const res = await gqlChecked(w, 'move card', w.merchants[merchant]!.key, `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id } }`, {
    id: card.id,
    input: { deviceId: w.devices[other.i]!.id },
  });
  if (!res.errors) card.device = other.i;
  return `move card ${card.id} to d${other.i} → ${res.errors?.[0]?.extensions.code ?? 'moved'}`;
};

const toggleCard: Op = async (w, r) => {
  const card = r.pick(w.cards);
  const res = await gqlChecked(w, 'toggle card', w.merchants[w.projects[card.project]!.merchant]!.key, `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id } }`, {
    id: card.id,
    input: { active: !card.active },
  });
  if (!res.errors) card.active = !card.active;
  return `card ${card.id} active=${card.active}`;
};

/** A key leaks: it is revoked and replaced; requests with the old one meet 401 until the swap. */
const rotateKey: Op = async (w, r) => {
  const index = r.int(w.projects.length);
  const p = w.projects[index]!;
  const key = w.merchants[p.merchant]!.key;
  const made = await gqlChecked(w, 'create key', key, `mutation($p: ID!) { createApiKey(projectId: $p) { key apiKey { id } } }`, { p: p.id });
  const old = p.keyId;
  p.apiKey = made.data.createApiKey.key;
  p.keyId = made.data.createApiKey.apiKey.id;
  await gqlChecked(w, 'revoke key', key, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: old });
  return `rotate key of p${index}`;
};

const heartbeat: Op = async (w) => {
  await heartbeatAll(w);
  return 'heartbeat';
};

export const OPS: Record<string, { weight: number; run: Op }> = {
  create: { weight: 10, run: create },
  sms: { weight: 10, run: realSms },
  forgedSms: { weight: 3, run: forgedSms },
  simulate: { weight: 4, run: simulate },
  simulateLive: { weight: 1, run: simulateLive },
  cancel: { weight: 2, run: checkoutAction('cancel') },
  report: { weight: 2, run: checkoutAction('report') },
  verify: { weight: 2, run: projectAction('verify') },
  reject: { weight: 1, run: projectAction('reject') },
  manualConfirm: { weight: 2, run: manualConfirm },
  attach: { weight: 3, run: attach },
  lateConfirm: { weight: 1, run: lateConfirm },
  refund: { weight: 3, run: refund },
  refundMessage: { weight: 1, run: refundMessage },
  sweepExpiry: { weight: 1, run: sweepExpiry },
  sweepLateWindows: { weight: 3, run: sweepLateWindows },
  expire: { weight: 2, run: expireOne },
  moveCard: { weight: 2, run: moveCard },
  toggleCard: { weight: 1, run: toggleCard },
  rotateKey: { weight: 1, run: rotateKey },
  heartbeat: { weight: 1, run: heartbeat },
  lostSms: { weight: 3, run: lostSms },
  lateLostSms: { weight: 2, run: lateLostSms },
  resolveGap: { weight: 3, run: resolveGap },
};
