import { bankParser } from '../bank-parser.js';

/**
 * `پست بانک` / `واريز به کارت: 6156` / `+998,190` / `1405/05/10` / `9:47` / `مانده: 44,108,899 ريال`; withdrawals
 * `برداشت از کارت: 1327` / `-509,000` (real messages quoted in public PHP and TypeScript payment bots).
 */
export const postbank = bankParser({
  bankCode: 'postbank',
  senders: ['PostBank', 'PostBankIran'],
  senderName: /postbank|bankpost/,
  mark: /پست\s?بانک/,
});
