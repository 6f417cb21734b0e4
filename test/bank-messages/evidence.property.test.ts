import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideEvidence, resolveCard, type EvidenceCard, type TrustedMessage } from '../../src/domain/bank-messages/evidence.js';
import { parseSms } from '../../src/domain/sms/registry.js';
import { mellatDate, parsianDate } from '../support/sms.js';

// Issue 17: the evidence decisions, called directly on real SMS text (parsed by the real parsers),
// for random sequences of genuine deposits and withdrawals (some lost on the way), re-sends (any
// receivedAt, reference or spelling of the account), forgeries from unknown senders and forgeries
// with the bank's sender and a balance the forger cannot know. The in-memory store below keeps
// what the database keeps (trusted messages) and answers the two reads the store does.
// Properties: no forged or re-sent message confirms anything; every genuine deposit whose
// balance follows the trusted chain does.

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
  const store: (TrustedMessage & { at: number; seq: number })[] = [];
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
      previous: resolution.card ? (store.filter((m) => m.cardId === resolution.card!.id && m.balance !== null && (m.at < at || (m.at === at && m.seq < seq))).sort((x, y) => y.at - x.at || y.seq - x.seq)[0] ?? null) : null,
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
      { numRuns: 300 },
    );
  });
});
