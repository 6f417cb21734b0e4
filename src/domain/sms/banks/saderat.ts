import { bankParser } from '../bank-parser.js';

/**
 * Melli's template with a trailing sign: `پايا: 1,479,680+` / `حساب: 27007` / `مانده: 32,203,090` / `0503 - 13:04`, often
 * flattened onto one line by the forwarder; purchases as `پايانه فروش: 4,100,000-` (doxigo/muchToman
 * MoneyTest.kt, real messages from sender 98700719). The body names no bank: the sender does.
 */
export const saderat = bankParser({
  bankCode: 'saderat',
  senders: ['+98700719', '+989830009419', 'BankSaderat'],
  senderName: /^(?:b|bank)?saderat(?:bank)?$/,
  mark: /(?<!توسعه\s?)صادرات/,
});
