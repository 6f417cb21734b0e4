import { buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { orMovement } from '../movement.js';
import type { SmsParser } from '../types.js';

const BANK_MARK = /bki\.?\s*ir|کشاورزی/i;
const MOVEMENT = /^(?:واریز|برداشت|خرید|پرداخت|انتقال|قبض)/;
const COMPACT_LINE = /^\d{6}(?:[ _\-]?\d{2}:?\d{2})$/m;

/**
 * `واریز4,000,000` / `مانده12,500,000` / `کارت8783*` / `0407151402` / `bki. ir`. The date may also
 * be `050627-13:04`, and a Pol transfer (`واریز پل…`) names a bare account line instead of the card.
 */
export const keshavarzi: SmsParser = {
  bankCode: 'keshavarzi',
  senders: ['bki', 'Keshavarzi', 'BankKeshavarzi'],
  senderName: /^bki$|keshavarzi/,
  mark: BANK_MARK,
  parse(body, receivedAt, context) {
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const shaped = movement !== undefined && COMPACT_LINE.test(body) && !namesABank(body);
    if (!BANK_MARK.test(body) && !shaped && context?.viaSender !== true) return null;
    const signals = orMovement({
      body,
      amount: movement ? leadingAmount(movement.value) : null,
      deposit: movement?.label.startsWith('واریز') ?? false,
      withdrawal: movement !== undefined && !movement.label.startsWith('واریز'),
    });
    const card = findField(fields, /^کارت$/)?.value;
    const bareAccount = fields.find(
      (f) => f.label === '' && /^\d{5,}$/.test(f.value) && findBankTime(f.value, { compact: true }) === null,
    )?.value;
    return buildParsed('keshavarzi', signals, hintOf(card ?? bareAccount), findBankTime(body, { compact: true, receivedAt }));
  },
};
