import { bankParser } from '../bank-parser.js';

/**
 * `برداشت: 126-800-1026659-1` / `-3,100,000ريال` / `مانده:2,271,325,358ريال` / `5/8-10:04` / `مرکزآواي نوين:02162740`
 * (doxigo/muchToman MoneyTest.kt, real, sender ENBank): the account sits on the label line, the signed amount below.
 */
export const eghtesadnovin = bankParser({
  bankCode: 'eghtesadnovin',
  senders: ['ENBank'],
  senderName: /^enbank$|eghtesad/,
  mark: /اقتصاد\s?نوین|آوای\s?نوین/,
});
