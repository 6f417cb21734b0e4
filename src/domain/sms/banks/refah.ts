import { AMOUNT, buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import { accountHintFor, orMovement } from '../movement.js';
import type { Direction, SmsParser } from '../types.js';

const BANK_NAME = /بانک رفاه/;
const LABELS = 'کارت|پایا|ساتنا|شتاب|پل|خرید|انتقال|برداشت|واریز|قبض';
// Refah glues the label to the amount and puts the sign last (`کارت5,000,000+`); Melli uses a colon.
const GLUED_SIGNED_LINE = new RegExp(String.raw`^(?:${LABELS})\s*(?:${AMOUNT})\s*[+-]$`, 'm');
const MOVEMENT = new RegExp(String.raw`^(?:${LABELS})$`);

/**
 * `بانک رفاه` / `حساب292555271` / `کارت5,000,000+` / `مانده14,591,760` / `06/19-22:07`; other templates
 * (`2,000,000 ریال به حساب شما واریز شد`) go to the shared reader. Senders `Refah Bank`, 100031, 100032:
 * doxigo/muchToman MoneyTest.kt.
 */
export const refah: SmsParser = {
  bankCode: 'refah',
  senders: ['+98300078', '100031', '100032', 'Refah Bank', 'RefahBank'],
  senderName: /refah/,
  mark: BANK_NAME,
  parse(body, receivedAt, context) {
    if (!BANK_NAME.test(body) && (!GLUED_SIGNED_LINE.test(body) || namesABank(body)) && context?.viaSender !== true) return null;
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const signals = orMovement({
      body,
      amount: movement ? leadingAmount(movement.value) : null,
      deposit: movement?.label === 'واریز',
      withdrawal: /^(?:خرید|برداشت|قبض)$/.test(movement?.label ?? ''),
    });
    const account = findField(fields, /^حساب$/)?.value;
    const hint = (direction: Direction) => hintOf(account) ?? accountHintFor(body, direction);
    return buildParsed('refah', signals, hint, findBankTime(body, { receivedAt }));
  },
};
