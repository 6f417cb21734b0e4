import { bankParser } from '../bank-parser.js';

/**
 * `*بانك گردشگری*` / `کارت` / `واريز به: 2311.7007.1234567.1` / `مبلغ: 12,000,000 ريال` / `05/04/02_19:00` /
 * `موجودي: 309,663,249 ريال`; withdrawals `برداشت از:`; passwords `انتقال به` … `رمز:31432`
 * (alihoushy/hezarrial tests/Unit/BankSmsParserTest.php, bodies from the author's phone).
 */
export const gardeshgari = bankParser({
  bankCode: 'gardeshgari',
  senders: ['TourismBank', 'GardeshgariBank'],
  senderName: /gardeshgari|tourism/,
  mark: /گردشگری/,
});
