export type Direction = 'deposit' | 'withdrawal' | 'otp' | 'balance' | 'other';

/**
 * What one bank SMS says. `accountHint` is digits only: for a deposit the receiving card or
 * account (often just its last 4 digits); for other directions the account the SMS is about.
 * `bankTime` is null when the SMS carries no usable date and time; the caller picks a fallback.
 */
export type ParsedSms = {
  bankCode: string;
  direction: Direction;
  amount: bigint | null;
  accountHint: string | null;
  bankTime: Date | null;
  reference: string | null;
};

export type SmsParser = {
  bankCode: string;
  senders: RegExp[];
  /**
   * Returns null when the body is not this bank's shape. `receivedAt` only supplies the year
   * for banks whose date line omits it (`06/19-22:07`); without it such a bankTime is null.
   */
  parse(normalizedBody: string, receivedAt?: Date): ParsedSms | null;
};
