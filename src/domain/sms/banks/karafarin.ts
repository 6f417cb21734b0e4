import { bankParser } from '../bank-parser.js';

/**
 * `کارت:1234` / `مبلغ:-75,000` / `مانده:925,000`: the sign on the `مبلغ` line (mvalipm/jibito AllBankParsersTest.kt).
 */
export const karafarin = bankParser({
  bankCode: 'karafarin',
  senders: ['KarafarinBank'],
  senderName: /karafarin/,
  mark: /کار\s?آفرین|کارافرین/,
});
