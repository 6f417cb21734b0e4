import { bankParser } from '../bank-parser.js';

/**
 * `بانک دی` / `برداشت از حساب:…` / `مبلغ:800,000` / `موجودی:1,200,000` (mvalipm/jibito AllBankParsersTest.kt, old-app layout).
 */
export const dey = bankParser({
  bankCode: 'dey',
  senders: ['BankDey', 'DayBank'],
  senderName: /^(?:bank)?(?:dey|day)(?:bank)?$/,
  mark: /بانک دی(?![\p{L}])/u,
});
