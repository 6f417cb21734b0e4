import { bankParser } from '../bank-parser.js';

/**
 * Melli's template: `انتقال خودپرداز: +2,500,000` / `حساب:310057795083` / `مانده:53,900,024` / `0631-11:18` from sender
 * `Bank Maskan` (a public TypeScript SMS-ingest test quoting production bodies; `انتقال: -114,750,000` / `قبض: -…` in
 * the same project's withdrawal test); notices under `بانک مسکن`. The body names no bank and Melli and Saderat use the
 * same template, so only the sender (`Bank Maskan`, as read off real phones in doxigo/muchToman Sms.kt, its Bank enum) says it is Maskan's.
 */
export const maskan = bankParser({
  bankCode: 'maskan',
  senders: ['Bank Maskan', 'Maskan Bank', 'MaskanBank'],
  senderName: /maskan/,
  mark: /بانک مسکن|مسکن\s?بانک/,
  accountLine: true,
});
