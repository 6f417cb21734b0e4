import { bankParser } from '../bank-parser.js';

/**
 * `بانک توسعه تعاون` / `واریز …` / `مبلغ` / `مانده` in the common labelled layout (no real message found).
 */
export const tosee = bankParser({
  bankCode: 'tosee',
  senders: ['TTBank'],
  senderName: /ttbank|toseetaavon/,
  mark: /توسعه\s?تعاون/,
});
