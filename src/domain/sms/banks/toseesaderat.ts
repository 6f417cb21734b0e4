import { bankParser } from '../bank-parser.js';

/**
 * `توسعه صادرات` / `واریز` / `حساب:123` / `مبلغ:5,000,000` / `مانده:8,000,000` (mvalipm/jibito AllBankParsersTest.kt).
 */
export const toseesaderat = bankParser({
  bankCode: 'toseesaderat',
  senders: ['EDBI', 'ToseeSaderat'],
  senderName: /edbi|toseesaderat/,
  mark: /توسعه\s?صادرات/,
});
