import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHead, chainReferences, follows, type ChainLink, type OpeningBalance } from '../../src/domain/bank-messages/chain.js';
import { decideEvidence, resolveCard, type EvidenceCard, type TrustedMessage } from '../../src/domain/bank-messages/evidence.js';
import { parseSms } from '../../src/domain/sms/registry.js';
import { mellatDate, parsianDate } from '../support/sms.js';

// Issue 17: the evidence decisions, called directly on real SMS text (parsed by the real parsers),
// for random sequences of genuine deposits and withdrawals (some lost on the way), re-sends (any
// receivedAt, reference or spelling of the account), forgeries from unknown senders and forgeries
// with the bank's sender and a balance the forger cannot know. The in-memory store below keeps
// what the database keeps (trusted messages) and answers the two reads the store does.
// Properties: no forged or re-sent message confirms anything; every genuine deposit whose
// balance follows the trusted chain does. Issue 34: the same when the messages of one bank minute
// arrive in any order (the chain follows the bank's order), and the chain's head ends on the
// bank's last balance.

// Seeded, and the seed printed, so a failure replays: FC_SEED=<seed> npx vitest run <this file>.
const SEED = Number(process.env.FC_SEED) || Math.floor(Math.random() * 2 ** 31);
console.log(`evidence.property: fast-check seed ${SEED}`);

type Stored = TrustedMessage & { at: number; seq: number };

/** The in-memory store's trusted messages of a card as chain links (what store/evidence.ts `chainOf` reads). */
const linksOf = (store: readonly Stored[], cardId: string): ChainLink[] =>
  store
    .filter((m): m is Stored & { balance: bigint } => m.cardId === cardId && m.balance !== null)
    .map((m) => ({ id: m.id, direction: m.direction, amount: m.amount, balance: m.balance, at: new Date(m.at), arrivedAt: new Date(m.seq) }));

const ACCOUNT = '1234567890';
const CARD: EvidenceCard = { id: 'card-mellat', bankCode: 'mellat', cardNumber: '6104337812345678', accountNumber: ACCOUNT, smsSender: null };
const OTHER: EvidenceCard = { id: 'card-saman', bankCode: 'saman', cardNumber: '6219861099990001', accountNumber: null, smsSender: null };
const CARDS = [CARD, OTHER];
// How the same card can be spelled in a Mellat SMS.
const SPELLINGS = [ACCOUNT, '34567890', '****7890', '5678'];
const T0 = Date.UTC(2026, 10, 20, 6, 0);

type Movement = { direction: 'deposit' | 'withdrawal'; amount: bigint; balance: bigint; at: Date; reference: string };
type Sent = { sender: string; body: string; genuine: Movement | null; resend: boolean; forged: boolean };

const n = (v: bigint) => v.toLocaleString('en-US');
function mellatBody(m: { direction: 'deposit' | 'withdrawal'; amount: bigint; balance: bigint | null; at: Date }, spelling: string): string {
  const line = m.balance === null ? '' : `\nمانده${n(m.balance)}`;
  return `حساب${spelling}\n${m.direction === 'deposit' ? 'واریز' : 'برداشت'}${n(m.amount)}${line}\n${mellatDate(m.at)}`;
}
function parsianBody(m: { amount: bigint; balance: bigint; at: Date; reference: string }, to: string): string {
  return `مبلغ:+${n(m.amount)}\nمانده:${n(m.balance)}\nبابت :انتقال از کارت 6219****3264 به کارت ${to} با شماره پیگیری ${m.reference}\n${parsianDate(m.at)}`;
}

type Step =
  | { kind: 'genuine'; direction: 'deposit' | 'withdrawal'; amount: number; lost: boolean; spelling: number }
  | { kind: 'resend'; pick: number; spelling: number }
  | { kind: 'forgeUnknown'; amount: number; balance: number; spelling: number }
  | { kind: 'forgeBankSender'; amount: number; balanceOffset: number; spelling: number; withBalance: boolean }
  | { kind: 'forgeOtherLayout'; amount: number; balanceOffset: number; pick: number };

const amount = fc.integer({ min: 1, max: 5_000 }).map((k) => k * 1_000);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('genuine' as const), direction: fc.constantFrom('deposit' as const, 'deposit' as const, 'withdrawal' as const), amount, lost: fc.integer({ min: 0, max: 9 }).map((x) => x < 2), spelling: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resend' as const), pick: fc.nat(), spelling: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgeUnknown' as const), amount, balance: fc.integer({ min: 0, max: 99_000_000 }), spelling: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgeBankSender' as const), amount, balanceOffset: fc.integer({ min: -5_000_000, max: 5_000_000 }).filter((x) => x !== 0), spelling: fc.nat(3), withBalance: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgeOtherLayout' as const), amount, balanceOffset: fc.integer({ min: 0, max: 5_000_000 }), pick: fc.nat() }) },
);

function run(steps: Step[]) {
  // The bank's truth, and the oracle's view of the trusted chain (the last genuine balance that followed it).
  let balance = 20_000_000n;
  let chain: bigint | null = null;
  let tick = 0;
  const delivered: Movement[] = [];
  const store: Stored[] = [];
  const confirmedBy: Sent[] = [];
  const genuineFollowing: Movement[] = [];
  const genuineConfirmed = new Set<Movement>();

  // Anchor: the first genuine message with a balance (trust on first use, docs/security.md).
  const opening: Step = { kind: 'genuine', direction: 'deposit', amount: 10_000, lost: false, spelling: 0 };
  for (const [seq, s] of [opening, ...steps].entries()) {
    let sent: Sent | null = null;
    if (s.kind === 'genuine') {
      const a = BigInt(s.amount);
      balance += s.direction === 'deposit' ? a : -a;
      const m: Movement = { direction: s.direction, amount: a, balance, at: new Date(T0 + ++tick * 60_000), reference: String(100_000 + tick) };
      if (s.lost) continue;
      delivered.push(m);
      const follows = chain === null || chain + (s.direction === 'deposit' ? a : -a) === balance;
      if (follows) {
        chain = balance;
        if (s.direction === 'deposit') genuineFollowing.push(m);
      }
      sent = { sender: 'BankMellat', body: mellatBody(m, SPELLINGS[s.spelling]!), genuine: m, resend: false, forged: false };
    } else if (s.kind === 'resend') {
      if (delivered.length === 0) continue;
      const m = delivered[s.pick % delivered.length]!;
      // Another receivedAt and possibly another spelling of the account: the bank facts are the same.
      sent = { sender: 'BankMellat', body: mellatBody(m, SPELLINGS[s.spelling]!), genuine: m, resend: true, forged: false };
    } else if (s.kind === 'forgeUnknown') {
      const at = new Date(T0 + ++tick * 60_000);
      sent = { sender: '+989121234567', body: mellatBody({ direction: 'deposit', amount: BigInt(s.amount), balance: BigInt(s.balance), at }, SPELLINGS[s.spelling]!), genuine: null, resend: false, forged: true };
    } else if (s.kind === 'forgeBankSender') {
      const at = new Date(T0 + ++tick * 60_000);
      // The forger does not know the balance: whatever it writes is not the chain's next one.
      const a = BigInt(s.amount);
      const guess = chain === null ? null : chain + a + BigInt(s.balanceOffset);
      sent = { sender: 'BankMellat', body: mellatBody({ direction: 'deposit', amount: a, balance: s.withBalance ? guess : null, at }, SPELLINGS[s.spelling]!), genuine: null, resend: false, forged: true };
    } else {
      const at = new Date(T0 + ++tick * 60_000);
      const a = BigInt(s.amount);
      const copy = delivered.length > 0 ? delivered[s.pick % delivered.length]! : null;
      sent = { sender: 'Parsian', body: parsianBody({ amount: a, balance: (chain ?? 0n) + a + BigInt(s.balanceOffset), at, reference: copy?.reference ?? '424242' }, '6104****5678'), genuine: null, resend: false, forged: true };
    }

    const receivedAt = new Date(T0 + tick * 60_000 + 5_000);
    const { parsed } = parseSms(sent.sender, sent.body, receivedAt);
    expect(parsed, sent.body).not.toBeNull();
    const resolution = resolveCard(CARDS, parsed!);
    const at = (parsed!.bankTime ?? receivedAt).getTime();
    const decision = decideEvidence({
      sender: sent.sender,
      parsed: parsed!,
      resolution,
      bodySha256: createHash('sha256').update(sent.body).digest('hex'),
      originals: store,
      references: resolution.card ? chainReferences(linksOf(store, resolution.card.id), null, new Date(at)) : [],
    });
    if (decision.kind === 'checked' && decision.trusted) store.push({ ...decision.facts, id: `m${seq}`, at, seq });
    const confirms = decision.kind === 'checked' && decision.problem === null && parsed!.direction === 'deposit';
    if (confirms) {
      confirmedBy.push(sent);
      if (sent.genuine && !sent.resend) genuineConfirmed.add(sent.genuine);
    }
  }
  return { confirmedBy, genuineFollowing, genuineConfirmed };
}

describe('evidence decisions under random schedules (fast-check)', () => {
  it('no forged or re-sent message confirms anything; every genuine deposit that follows the trusted chain does', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const { confirmedBy, genuineFollowing, genuineConfirmed } = run(steps);
        for (const sent of confirmedBy) {
          expect(sent.forged, `forged message confirmed: ${sent.body}`).toBe(false);
          expect(sent.resend, `re-sent message confirmed: ${sent.body}`).toBe(false);
        }
        for (const m of genuineFollowing) expect(genuineConfirmed.has(m), `genuine deposit ${m.amount} → ${m.balance} not confirmed`).toBe(true);
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});

// ---- Issue 34: one bank minute, any arrival order ----

type MinuteMove = { direction: 'deposit' | 'withdrawal'; amount: number };
type Intruder = { kind: 'unknownSender' | 'bankSender'; amount: number; offset: number };

const minuteMove: fc.Arbitrary<MinuteMove> = fc.record({ direction: fc.constantFrom('deposit' as const, 'deposit' as const, 'deposit' as const, 'withdrawal' as const), amount });
const intruder: fc.Arbitrary<Intruder> = fc.record({ kind: fc.constantFrom('unknownSender' as const, 'bankSender' as const), amount, offset: fc.integer({ min: 1, max: 3_000_000 }) });

type Arrival = { sender: string; body: string; genuine: Movement | null };

/**
 * A card with a reference (the opening balance, or a genuine first message a minute earlier), a
 * bank minute of genuine movements (and forgeries) delivered in `order`, then the next minute's
 * genuine deposit. Each arrival is decided as bank-message-in.ts does: the evidence decision over
 * the chain's references; a trusted message then trusts the held messages that follow it and are
 * not older, and theirs in turn (`trustFollowers`, store/evidence.ts `waitingFollowers`), and a
 * deposit among them confirms.
 */
function runMinute(input: { withOpening: boolean; prefix: MinuteMove[]; minute: MinuteMove[]; intruders: Intruder[]; order: number[] }) {
  let balance = 30_000_000n;
  const opening: OpeningBalance | null = input.withOpening ? { balance, at: new Date(T0 + 10_000) } : null;
  const genuine: Movement[] = [];
  const move = (m: MinuteMove, minute: number, i: number): Movement => {
    const a = BigInt(m.amount);
    balance += m.direction === 'deposit' ? a : -a;
    return { direction: m.direction, amount: a, balance, at: new Date(T0 + minute * 60_000), reference: String(200_000 + minute * 100 + i) };
  };
  const ordered: Arrival[] = [];
  if (!input.withOpening) {
    const first = move({ direction: 'deposit', amount: 10_000 }, 1, 0);
    ordered.push({ sender: 'BankMellat', body: mellatBody(first, ACCOUNT), genuine: first });
  }
  input.prefix.forEach((m, i) => {
    const g = move(m, 2 + i, i);
    genuine.push(g);
    ordered.push({ sender: 'BankMellat', body: mellatBody(g, ACCOUNT), genuine: g });
  });
  const minute = 2 + input.prefix.length;
  const inMinute: Movement[] = input.minute.map((m, i) => move(m, minute, i));
  // Two deposits of one minute with one amount and one resulting balance are one deposit by the
  // rule of docs/security.md S7 (a re-send): the bank's own such pair is not what this property is about.
  const deposits = inMinute.filter((g) => g.direction === 'deposit');
  const indistinct = deposits.some((g, i) => deposits.some((o, j) => j > i && o.amount === g.amount && o.balance === g.balance));
  genuine.push(...inMinute);
  const last = move({ direction: 'deposit', amount: 7_000 }, minute + 1, 0);
  genuine.push(last);
  // Every balance the bank ever reported: a forgery with the bank's sender must follow none of them (its forger cannot know them).
  const known = [input.withOpening ? 30_000_000n : null, ...ordered.map((o) => o.genuine!.balance), ...genuine.map((g) => g.balance)].filter((b): b is bigint => b !== null);
  const shuffled: Arrival[] = [
    ...inMinute.map((g) => ({ sender: 'BankMellat', body: mellatBody(g, ACCOUNT), genuine: g })),
    ...input.intruders.map((f) => {
      const a = BigInt(f.amount);
      // An unknown sender may even copy a balance that follows the chain; the bank's sender only a guess that follows nothing.
      let forged = f.kind === 'unknownSender' ? inMinute[0]!.balance - inMinute[0]!.amount + a : known[0]! + a + BigInt(f.offset);
      while (f.kind === 'bankSender' && known.some((b) => forged === b + a || forged === b - a || forged === b)) forged += 1_000n;
      return { sender: f.kind === 'unknownSender' ? '+989121234567' : 'BankMellat', body: mellatBody({ direction: 'deposit', amount: a, balance: forged, at: inMinute[0]!.at }, ACCOUNT), genuine: null };
    }),
  ]
    .map((arrival, i) => ({ arrival, key: input.order[i] ?? 0, i }))
    .sort((x, y) => x.key - y.key || x.i - y.i)
    .map((x) => x.arrival);
  const arrivals = [...ordered, ...shuffled, { sender: 'BankMellat', body: mellatBody(last, ACCOUNT), genuine: last }];

  const store: Stored[] = [];
  type Held = { id: string; seq: number; at: number; facts: Stored; arrival: Arrival };
  const held: Held[] = [];
  const confirmed = new Set<Arrival>();
  arrivals.forEach((arrival, seq) => {
    const receivedAt = new Date(T0 + 3_600_000 + seq * 1_000);
    const { parsed } = parseSms(arrival.sender, arrival.body, receivedAt);
    expect(parsed, arrival.body).not.toBeNull();
    const resolution = resolveCard(CARDS, parsed!);
    const at = (parsed!.bankTime ?? receivedAt).getTime();
    const decision = decideEvidence({
      sender: arrival.sender,
      parsed: parsed!,
      resolution,
      bodySha256: createHash('sha256').update(arrival.body).digest('hex'),
      originals: store,
      references: resolution.card ? chainReferences(linksOf(store, resolution.card.id), opening, new Date(at)) : [],
    });
    if (decision.kind !== 'checked') return;
    const facts: Stored = { ...decision.facts, id: `m${seq}`, at, seq };
    if (decision.problem === null && parsed!.direction === 'deposit') confirmed.add(arrival);
    if (!decision.trusted) {
      if (decision.problem?.reason === 'balance_mismatch' && facts.balance !== null) held.push({ id: facts.id, seq, at, facts, arrival });
      return;
    }
    store.push(facts);
    const tips: Stored[] = [facts];
    for (let tip = tips.shift(); tip; tip = tips.shift()) {
      const from = tip;
      const followers = held.filter((h) => h.at >= from.at && from.balance !== null && follows(h.facts, { balance: from.balance })).sort((x, y) => x.at - y.at || x.seq - y.seq);
      for (const next of followers) {
        held.splice(held.indexOf(next), 1);
        store.push(next.facts);
        if (next.facts.direction === 'deposit') confirmed.add(next.arrival);
        tips.push(next.facts);
      }
    }
  });
  return { confirmed, arrivals, genuine, head: chainHead(linksOf(store, CARD.id), opening), lastBalance: last.balance, indistinct };
}

describe('the chain in the bank’s order: one bank minute in any arrival order (fast-check)', () => {
  it('every genuine deposit confirms, no forgery does, and the head ends on the last balance', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(minuteMove, { maxLength: 2 }),
        fc.array(minuteMove, { minLength: 2, maxLength: 5 }),
        fc.array(intruder, { maxLength: 2 }),
        fc.array(fc.nat(), { minLength: 7, maxLength: 7 }),
        (withOpening, prefix, minute, intruders, order) => {
          const run = runMinute({ withOpening, prefix, minute, intruders, order });
          fc.pre(!run.indistinct);
          for (const a of run.arrivals) {
            if (a.genuine === null) expect(run.confirmed.has(a), `forgery confirmed: ${a.sender} ${a.body}`).toBe(false);
            else if (a.genuine.direction === 'deposit') expect(run.confirmed.has(a), `genuine deposit ${a.genuine.amount} → ${a.genuine.balance} not confirmed`).toBe(true);
          }
          expect(run.head?.balance).toBe(run.lastBalance);
        },
      ),
      { numRuns: 300, seed: SEED },
    );
  });
});
