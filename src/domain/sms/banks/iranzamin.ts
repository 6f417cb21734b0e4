import { bankParser } from '../bank-parser.js';

/**
 * `ایران زمین` / `برداشت` or `واریز` / `مبلغ 330,000` / `مانده 670,000` (mvalipm/jibito AllBankParsersTest.kt).
 */
export const iranzamin = bankParser({
  bankCode: 'iranzamin',
  senders: ['IranZaminBank', 'IZBank'],
  senderName: /iranzamin|izbank/,
  mark: /ایران\s?زمین/,
});
