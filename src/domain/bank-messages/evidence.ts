import { isKnownSender } from '../sms/senders.js';
import type { ParsedSms } from '../sms/types.js';
import { follows, type ChainLink } from './chain.js';

/**
 * The evidence a real bank SMS must carry before it may confirm anything (docs/decisions.md
 * "Evidence before money"; threats and answers in docs/security.md), as pure decisions over what
 * the bank says. The store (store/evidence.ts) reads the history these functions need and writes
 * what they decide; the property tests call them directly.
 */

/** Why a deposit that could confirm a payment is held for the merchant instead. */
export type EvidenceReason = 'unknown_sender' | 'balance_mismatch' | 'bank_mismatch' | 'unrecognized_format';
export type EvidenceProblem = { reason: EvidenceReason; detail: string };

/** A message whose sender is not one of its bank's (anyone can text a merchant's phone). */
export function unknownSender(bankCode: string, sender: string): EvidenceProblem {
  return { reason: 'unknown_sender', detail: `The sender "${sender}" is not a known sender of ${bankCode} SMS (add it to the card as smsSender if it is your bank's).` };
}

/** A card of the message's phone, as the evidence rules see it. */
export type EvidenceCard = { id: string; bankCode: string; cardNumber: string; accountNumber: string | null; smsSender?: string | null };

/** What the bank says about one movement, keyed on the card it was resolved to. */
export type BankFacts = {
  cardId: string | null;
  bankCode: string;
  direction: ParsedSms['direction'];
  amount: bigint | null;
  balance: bigint | null;
  bankTime: Date | null;
  reference: string | null;
  bodySha256: string;
};

/** An earlier message that passed every check (`trusted`): a chain reference and a possible original. */
export type TrustedMessage = BankFacts & { id: string };

const digits = (s: string | null) => (s ?? '').replace(/\D/g, '');

/** Shortest account-number fragment read as "this account" when it is not a suffix (some banks print the middle). */
const MIN_INNER_ACCOUNT_DIGITS = 8;

/**
 * Cards of the phone that the SMS's account or card hint can mean: the hint (digits only, the last
 * visible group of a masked number) is a suffix of the card number or of the account number, or a
 * long enough run inside the account number. No hint: every card of the phone.
 */
export function cardsForHint<C extends Pick<EvidenceCard, 'cardNumber' | 'accountNumber'>>(cards: C[], hint: string | null): C[] {
  if (!hint) return cards;
  return cards.filter((c) => {
    const account = digits(c.accountNumber);
    return c.cardNumber.endsWith(hint) || (account.length > 0 && (account.endsWith(hint) || (hint.length >= MIN_INNER_ACCOUNT_DIGITS && account.includes(hint))));
  });
}

export type Resolution<C extends EvidenceCard> = {
  /** Cards the deposit may be for, of the layout's bank (the hint's cards when none is). */
  cards: C[];
  /** The one card the message is about, when the hint names exactly one card of the layout's bank. */
  card: C | null;
  /** The hint names cards of the phone, but none of the layout's bank. */
  bankMismatch: boolean;
  /**
   * The card was not named by the SMS (no hint, or one several cards share) but taken from the
   * payment holding the deposit's amount: good enough to check the card's chain, never enough to
   * start one.
   */
  byHold?: boolean;
};

/**
 * Resolves the SMS to the merchant's card first (docs/decisions.md "Evidence before money": "every
 * rule keys on that card"), whatever the spelling: `حساب1234567890`, `****7890`, `6221**63057` and
 * `6221****3057` all name the same card. A message read as one bank's layout is never about another
 * bank's card.
 */
export function resolveCard<C extends EvidenceCard>(cards: C[], parsed: Pick<ParsedSms, 'accountHint' | 'bankCode'>): Resolution<C> {
  const named = cardsForHint(cards, parsed.accountHint);
  const sameBank = named.filter((c) => c.bankCode === parsed.bankCode);
  if (sameBank.length > 0) return { cards: sameBank, card: sameBank.length === 1 ? sameBank[0]! : null, bankMismatch: false };
  return { cards: named, card: null, bankMismatch: named.length > 0 };
}

/** How a chain reference is named in a held message's reason. */
const referenceName = (link: ChainLink) => (link.id === null ? `the card's opening balance ${link.balance}` : `the card's previous balance ${link.balance} (message ${link.id})`);

/**
 * The checks, in order: a layout no bank parser claims; a layout of another bank than the card's;
 * a sender that is not a known sender of the bank (nor the one the merchant vouched for on the
 * card); a balance that no chain reference of the card explains (chain.ts `chainReferences`: the
 * head before its bank time, or a trusted message of its own bank minute), or that is missing
 * when the card has a reference.
 */
export function evidenceProblem(input: {
  sender: string;
  parsed: Pick<ParsedSms, 'generic' | 'bankCode' | 'direction' | 'amount' | 'balance'>;
  resolution: Resolution<EvidenceCard>;
  references: readonly ChainLink[];
}): EvidenceProblem | null {
  const { sender, parsed, resolution, references } = input;
  if (parsed.generic) {
    return { reason: 'unrecognized_format', detail: 'Only the generic reader understood this message (no bank parser claims its layout); a person must confirm it.' };
  }
  if (resolution.bankMismatch) {
    const banks = [...new Set(resolution.cards.map((c) => c.bankCode))].join(', ');
    return { reason: 'bank_mismatch', detail: `The message has the layout of ${parsed.bankCode} SMS, but the card it names is a ${banks} card.` };
  }
  const vouched = resolution.cards.map((c) => c.smsSender).filter((s): s is string => Boolean(s));
  if (!isKnownSender(parsed.bankCode, sender, vouched)) return unknownSender(parsed.bankCode, sender);
  const [head] = references;
  if (head) {
    if (parsed.balance === null) return { reason: 'balance_mismatch', detail: `The message carries no balance, while the card's chain has one (${referenceName(head)}).` };
    if (!references.some((r) => follows(parsed, r))) {
      return {
        reason: 'balance_mismatch',
        detail: `The balance ${parsed.balance} does not follow from ${referenceName(head)} and this ${parsed.direction} of ${parsed.amount ?? 'no amount'}, nor from another trusted balance of its bank minute.`,
      };
    }
  }
  return null;
}

/**
 * Whether a message may serve as evidence for the ones after it (chain reference, original of a
 * duplicate): it passed every check and is about one card. A balance notice or a movement without
 * an amount cannot be checked against the chain, so it never moves it. A card's first trusted
 * message (no reference: trust on first use) must name the card itself.
 */
export function isTrusted(
  facts: Pick<BankFacts, 'cardId' | 'direction' | 'amount'>,
  problem: EvidenceProblem | null,
  chain: { references: readonly ChainLink[]; byHold: boolean },
): boolean {
  if (chain.byHold && chain.references.length === 0) return false;
  return problem === null && facts.cardId !== null && (facts.direction === 'deposit' || facts.direction === 'withdrawal') && facts.amount !== null;
}

/**
 * Two messages are one deposit when the bank says so, however they arrived or spelled the account:
 * the same bank reference and amount at one bank; or, on one card, the same amount and resulting
 * balance (and the same bank time when both carry one); or, on one card, the same text.
 */
export function sameDeposit(a: BankFacts, b: BankFacts): boolean {
  if (a.direction !== 'deposit' || b.direction !== 'deposit' || a.amount === null || a.amount !== b.amount) return false;
  if (a.reference !== null && a.reference === b.reference && a.bankCode === b.bankCode) return true;
  if (a.cardId === null || a.cardId !== b.cardId) return false;
  if (a.bodySha256 === b.bodySha256) return true;
  const sameTime = a.bankTime === null || b.bankTime === null || a.bankTime.getTime() === b.bankTime.getTime();
  return a.balance !== null && a.balance === b.balance && sameTime;
}

/** The earlier trusted message this one repeats (the first such), or null. Untrusted messages are never originals. */
export function originalOf(facts: BankFacts, earlierTrusted: readonly TrustedMessage[]): TrustedMessage | null {
  return earlierTrusted.find((m) => sameDeposit(m, facts)) ?? null;
}

export type EvidenceDecision =
  | { kind: 'duplicate'; original: TrustedMessage; facts: BankFacts }
  | { kind: 'checked'; facts: BankFacts; problem: EvidenceProblem | null; trusted: boolean };

/**
 * The whole evidence step for one message, once its card is resolved and the history read: a
 * repeat of a trusted deposit is a duplicate; otherwise the checks decide whether it may confirm a
 * payment (`problem` null) and whether it becomes evidence for the messages after it (`trusted`).
 */
export function decideEvidence(input: {
  sender: string;
  parsed: ParsedSms;
  resolution: Resolution<EvidenceCard>;
  bodySha256: string;
  originals: readonly TrustedMessage[];
  /** The chain links this message may follow (chain.ts `chainReferences`); empty: trust on first use. */
  references: readonly ChainLink[];
}): EvidenceDecision {
  const { parsed, resolution } = input;
  const facts: BankFacts = {
    cardId: resolution.card?.id ?? null,
    bankCode: parsed.bankCode,
    direction: parsed.direction,
    amount: parsed.amount,
    balance: parsed.balance,
    bankTime: parsed.bankTime,
    reference: parsed.reference,
    bodySha256: input.bodySha256,
  };
  const original = originalOf(facts, input.originals);
  if (original) return { kind: 'duplicate', original, facts };
  const problem = evidenceProblem({ sender: input.sender, parsed, resolution, references: input.references });
  return { kind: 'checked', facts, problem, trusted: isTrusted(facts, problem, { references: input.references, byHold: resolution.byHold === true }) };
}
