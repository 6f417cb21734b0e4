import { bankParser } from '../bank-parser.js';

/**
 * `سرمایه` / `واریز سود` / `مبلغ:12,000` / `مانده:1,012,000`: interest credits as `واریز سود` (mvalipm/jibito AllBankParsersTest.kt).
 */
export const sarmayeh = bankParser({
  bankCode: 'sarmayeh',
  senders: ['SarmayehBank'],
  senderName: /sarmayeh/,
  mark: /بانک سرمایه|سرمایه\s?بانک/,
});
