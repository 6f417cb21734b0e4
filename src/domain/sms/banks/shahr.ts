import { bankParser } from '../bank-parser.js';

/**
 * `بانک شهر` / `واریز:…` / `مبلغ:600,000` / `موجودی:1,600,000` (mvalipm/jibito AllBankParsersTest.kt, old-app layout;
 * service notices `بانک شهر` / `مشتری گرامی` … read as `other`).
 */
export const shahr = bankParser({
  bankCode: 'shahr',
  senders: ['ShahrBank', 'B.Shahr'],
  senderName: /^(?:b|bank)?shahr(?:bank)?$/,
  mark: /بانک شهر|شهر\s?بانک/,
});
