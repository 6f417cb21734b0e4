import { bankParser } from '../bank-parser.js';

/**
 * `بانک سینا` / `برداشت از 1-2-3` or `واریز به …` / `مبلغ 50,000` / `مانده 950,000` (layout of the older app ported in
 * mvalipm/jibito AllBankParsersTest.kt; no real message found).
 */
export const sina = bankParser({
  bankCode: 'sina',
  senders: ['SinaBank'],
  senderName: /^(?:bank)?sina(?:bank)?$/,
  mark: /بانک سینا|سینا\s?بانک/,
});
