import { bankParser } from '../bank-parser.js';

/**
 * `بانک آینده` / `واریز به حساب` / `حساب:…` / `مبلغ:1,000,000` / `مانده:3,000,000` (mvalipm/jibito AllBankParsersTest.kt);
 * passwords `بانک آینده` / `رمز دوم یکبار مصرف:` (beigirad/AutoOTP OtpCaseFactory.kt). Senders from doxigo/muchToman.
 */
export const ayandeh = bankParser({
  bankCode: 'ayandeh',
  senders: ['AyandehBank', '+98700745'],
  senderName: /ayandeh/,
  mark: /بانک آینده|آینده\s?بانک/,
});
