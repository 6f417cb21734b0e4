export type Direction = 'deposit' | 'withdrawal' | 'otp' | 'balance' | 'other';

/**
 * What one bank SMS says. `accountHint` is digits only: for a deposit the receiving card or
 * account (often just its last 4 digits); for other directions the account the SMS is about.
 * `bankTime` is null when the SMS carries no usable date and time; the caller picks a fallback.
 * `balance` is the `مانده`/`موجودی` after the movement when the SMS states one: the evidence for
 * a balance chain (previous + amount = new). `reference` is the bank's tracking or document number.
 * `generic` is true only for the fallback reader's guesses (`bankCode: 'unknown'`): such a deposit
 * must go to review, never confirm a payment by itself.
 */
export type ParsedSms = {
  bankCode: string;
  direction: Direction;
  amount: bigint | null;
  accountHint: string | null;
  bankTime: Date | null;
  reference: string | null;
  balance: bigint | null;
  generic: boolean;
};

export type ParseContext = {
  /** Supplies the year to date lines without one (`06/19-22:07`); without it such a bankTime is null. */
  receivedAt?: Date;
  /** The sender is one of this bank's: the body need not name the bank to be claimed. */
  viaSender?: boolean;
};

export type SmsParser = {
  bankCode: string;
  /** Sender ids this bank sends from, compared leniently (`+98700717` = `98700717` = `700717`). */
  senders: readonly string[];
  /** Alphanumeric sender names that also point at this bank (`BankMellat`, `B.Pasargad`). */
  senderName?: RegExp;
  /** Text naming the bank; when several banks are named, the earliest named one reads the body. */
  mark?: RegExp;
  /** Returns null when the body is not this bank's shape. */
  parse(normalizedBody: string, receivedAt?: Date, context?: ParseContext): ParsedSms | null;
};
