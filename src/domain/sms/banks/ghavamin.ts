import { bankParser } from '../bank-parser.js';

/**
 * `قوامین` / `1405/07/09 12:30` / `-150,000` / `حساب` / `مانده` / `850,000`: the balance on the line after its label
 * (mvalipm/jibito AllBankParsersTest.kt, old-app layout).
 */
export const ghavamin = bankParser({
  bankCode: 'ghavamin',
  senders: ['GhavaminBank'],
  senderName: /ghavamin/,
  mark: /قوامین/,
});
