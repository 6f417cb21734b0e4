import { bankParser } from '../bank-parser.js';
import { leadingAccount } from '../movement.js';

// `1,900,000-` / `+5,000,000`: the movement as a bare signed amount.
const SIGNED_LINE = /^(?:[+-]\s*\d{1,3}(?:,\d{3})+|\d{1,3}(?:,\d{3})+\s*[+-])$/m;
// `1405/7/14-16:18` or `05/06/26_12:40`: a date with its year (Pasargad's and Resalat's `06/01_17:53` has none).
const DATED_LINE = /^(?:\d{4}|\d{2})\/\d{1,2}\/\d{1,2}[-_ ]\d{1,2}:\d{2}$/m;

/**
 * The compact layout names no bank: the account alone (`300463586351`, often wrapped in LTR marks), the amount with its
 * sign after it (`1,900,000-`), `1405/7/14-16:18`, `مانده:30,724,805`, from sender `B.QMEHRIRAN` or +989810008528
 * (real messages quoted in a public Dart finance app's SmsParser, in public TypeScript and Kotlin parser tests, and read
 * off real phones in doxigo/muchToman Sms.kt, its Bank enum). A batch payment comes as `پرداخت گروهي` / `حساب:…` / `مبلغ:…` / `مانده:…` /
 * `زمان:…` with no sign; public parsers disagree on its direction, so without a `واریز گروهی` line it is never a deposit.
 * Older labelled layout: `مهر ایران` / `حساب:…` / `مبلغ:+20,000` / `مانده:120,000` (mvalipm/jibito AllBankParsersTest.kt).
 */
export const mehriran = bankParser({
  bankCode: 'mehriran',
  senders: ['B.QMEHRIRAN', '+989810008528', 'MehrIranBank', 'QMB'],
  senderName: /mehriran|qmb/,
  mark: /مهر\s?ایران/,
  accountLine: true,
  shape: (body) => leadingAccount(body) !== null && SIGNED_LINE.test(body) && DATED_LINE.test(body) && /^مانده/m.test(body),
});
