import { bankParser } from '../bank-parser.js';

/**
 * `بانک خاورمیانه` / `برداشت وجه از خودپرداز` / `-5,025,000` / `020/000016703` / `مانده 338,185,038` / `05/03` / `15:39`:
 * a headline, a signed bare amount and the balance (doxigo/muchToman MoneyTest.kt, real, sender +9820004861).
 */
export const khavarmianeh = bankParser({
  bankCode: 'khavarmianeh',
  senders: ['20004861', '20004860', 'MEBank'],
  senderName: /khavarmianeh|middleeast/,
  mark: /خاور\s?میانه/,
});
