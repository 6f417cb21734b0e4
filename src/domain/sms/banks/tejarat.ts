import { bankParser } from '../bank-parser.js';

/**
 * Key/value lines under the bank name: `حساب:…` / `برداشت:…` or `واریز:…` / `مانده:…` / `تاریخ:1405/07/09` / `ساعت:12:30`
 * (layout expected by the older Iranian app ported in mvalipm/jibito AllBankParsersTest.kt), and the
 * `بانک تجارت` / `برداشت: 720,000 ريال` / `مانده: …` form seen in expense-tracker tests. The newer card template
 * names the movement in `نوع تراکنش:`; there `انتقال به شتابي` is an incoming Shetab transfer (the balance rises by the
 * amount across a real run of statements, unlike `خريد شتابي`: a public Kotlin parser, TejaratBankParser.kt, and its test).
 */
export const tejarat = bankParser({
  bankCode: 'tejarat',
  senders: ['TejaratBank', 'Tejarat', 'BankTejarat'],
  senderName: /tejarat/,
  mark: /بانک تجارت|تجارت\s*بانک|^\*?تجارت\*?$/m,
  credit: /نوع\s*تراکنش\s*:?\s*انتقال\s*به\s*شتابی/,
});
