import { bankParser } from '../bank-parser.js';

// branch.number.serial (`10.7488478.1`); Pasargad's account has four parts, so the two never meet.
const ACCOUNT_LINE = /^\d{2,4}\.\d{5,}\.\d{1,3}$/m;
const SIGNED_LINE = /^[+-]\s*\d{1,3}(?:,\d{3})+$|^\d{1,3}(?:,\d{3})+\s*[+-]$/m;

/**
 * `10.7488478.1` / `-1,000,000,000` / `05/03_15:14` / `مانده: 2,807,813`: a three-part dotted account and a signed
 * bare amount (doxigo/muchToman MoneyTest.kt; alihoushy/hezarrial BankSmsParserTest.php). Purchase
 * passwords read `محرمانه` / `خرید` / … / `رمز:59864`.
 */
export const resalat = bankParser({
  bankCode: 'resalat',
  senders: ['ResalatBank', 'Resalat'],
  senderName: /resalat/,
  mark: /رسالت/,
  shape: (body) => ACCOUNT_LINE.test(body) && SIGNED_LINE.test(body),
});
