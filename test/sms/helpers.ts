import type { ParsedSms } from '../../src/domain/sms/types.js';
import type { ExpectedSms } from './fixtures/types.js';

export function toPlain(parsed: ParsedSms | null): ExpectedSms | null {
  if (parsed === null) return null;
  return {
    bankCode: parsed.bankCode,
    direction: parsed.direction,
    amount: parsed.amount === null ? null : parsed.amount.toString(),
    accountHint: parsed.accountHint,
    bankTime: parsed.bankTime === null ? null : parsed.bankTime.toISOString(),
    reference: parsed.reference,
  };
}
