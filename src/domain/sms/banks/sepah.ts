import { bankParser } from '../bank-parser.js';

/**
 * `بانک سپه` / `واريز:10,200,000ريال` / `حساب:1234567890123` / `مانده:36,100,000` / `3/22-19:46`, and the newer
 * signed form `بانک سپه` / `-299,520,000` / `حساب 123` / `مانده …` / `19:23 1405,07,16`
 * (alihoushy/hezarrial tests/Unit/BankSmsParserTest.php; mvalipm/jibito SepahTransferTest.kt).
 * Its transfer passwords (`انتقال وجه پایا عادی` … `رمز: 507289`) carry an amount and stay `otp`.
 */
export const sepah = bankParser({
  bankCode: 'sepah',
  senders: ['BankSepah', 'Sepah', 'SepahBank'],
  senderName: /sepah/,
  mark: /سپه(?!ر)/,
});
