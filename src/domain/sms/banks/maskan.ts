import { bankParser } from '../bank-parser.js';

/**
 * Melli's template: `انتقال خودپرداز: +2,500,000` / `حساب:310057795083` / `مانده:53,900,024` / `0631-11:18` from sender
 * `Bank Maskan` (a public TypeScript SMS-ingest test quoting production bodies); notices under `بانک مسکن`.
 */
export const maskan = bankParser({
  bankCode: 'maskan',
  senders: ['Maskan Bank', 'MaskanBank'],
  senderName: /maskan/,
  mark: /بانک مسکن|مسکن\s?بانک/,
});
