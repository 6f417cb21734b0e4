import { bankParser } from '../bank-parser.js';

/**
 * `مهر ایران` / `حساب:…` / `مبلغ:+20,000` / `مانده:120,000`: the sign sits in the amount line (mvalipm/jibito
 * AllBankParsersTest.kt, old-app layout; no real message found).
 */
export const mehriran = bankParser({
  bankCode: 'mehriran',
  senders: ['MehrIranBank', 'QMB'],
  senderName: /mehriran|qmb/,
  mark: /مهر\s?ایران/,
});
