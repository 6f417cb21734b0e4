import type { ParsedSms } from '../sms/types.js';

/**
 * No real card-to-card transfer comes near 10^13 rials (a trillion toman; daily card limits are
 * far below): a bigger figure is a misread or a forged SMS, not money. It must never reach the
 * BIGINT columns (9.2 × 10^18) or the matching engine.
 */
export const MAX_PLAUSIBLE_AMOUNT = 10_000_000_000_000n;
const BIGINT_MAX = 9_223_372_036_854_775_807n;
const EARLIEST_BANK_TIME = Date.UTC(2000, 0, 1);
const LATEST_BANK_TIME = Date.UTC(2100, 0, 1);

function short(n: bigint): string {
  const s = n.toString();
  return s.length > 24 ? `${s.slice(0, 20)}… (${s.length} digits)` : s;
}

/**
 * Why a parsed SMS cannot be a sane bank message (the `unparsed` reason), or null when it can:
 * an amount outside 1..10^13 rials, a balance outside BIGINT, a bank time outside 2000..2100.
 */
export function implausibleParse(parsed: Pick<ParsedSms, 'amount' | 'balance' | 'bankTime'>): string | null {
  const { amount, balance, bankTime } = parsed;
  if (amount !== null && (amount <= 0n || amount > MAX_PLAUSIBLE_AMOUNT)) {
    return `The amount read (${short(amount)} rials) is not a plausible transfer (1..10^13 rials); kept for review.`;
  }
  if (balance !== null && (balance > BIGINT_MAX || balance < -BIGINT_MAX)) {
    return `The balance read (${short(balance)} rials) is out of range; kept for review.`;
  }
  if (bankTime !== null && !(bankTime.getTime() >= EARLIEST_BANK_TIME && bankTime.getTime() < LATEST_BANK_TIME)) {
    return 'The date read from the message is not plausible; kept for review.';
  }
  return null;
}
