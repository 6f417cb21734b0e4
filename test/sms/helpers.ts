import type { ParsedSms } from '../../src/domain/sms/types.js';
import type { ExpectedSms } from './fixtures/types.js';

export type PlainSms = Required<ExpectedSms>;

export function toPlain(parsed: ParsedSms | null): PlainSms | null {
  if (parsed === null) return null;
  return {
    bankCode: parsed.bankCode,
    direction: parsed.direction,
    amount: parsed.amount === null ? null : parsed.amount.toString(),
    accountHint: parsed.accountHint,
    bankTime: parsed.bankTime === null ? null : parsed.bankTime.toISOString(),
    reference: parsed.reference,
    balance: parsed.balance === null ? null : parsed.balance.toString(),
    generic: parsed.generic,
  };
}

/**
 * What a fixture's expectation means in full: a fixture that leaves `balance` out does not check it
 * (older fixtures, and non-movements), and `generic` is false unless stated.
 */
export function expectedFor(expected: ExpectedSms | null, actual: PlainSms | null): PlainSms | null {
  if (expected === null) return null;
  return {
    ...expected,
    balance: expected.balance === undefined ? (actual?.balance ?? null) : expected.balance,
    generic: expected.generic ?? false,
  };
}
