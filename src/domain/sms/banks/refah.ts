import { AMOUNT, buildParsed, fieldsOf, findField, hintOf, leadingAmount, namesABank } from '../fields.js';
import { findBankTime } from '../jalali.js';
import type { SmsParser } from '../types.js';

const BANK_NAME = /بانک رفاه/;
const LABELS = 'کارت|پایا|ساتنا|شتاب|پل|خرید|انتقال|برداشت|واریز|قبض';
// Refah glues the label to the amount and puts the sign last (`کارت5,000,000+`); Melli uses a colon.
const GLUED_SIGNED_LINE = new RegExp(String.raw`^(?:${LABELS})\s*(?:${AMOUNT})\s*[+-]$`, 'm');
const MOVEMENT = new RegExp(String.raw`^(?:${LABELS})$`);

/** `بانک رفاه` / `حساب292555271` / `کارت5,000,000+` / `مانده14,591,760` / `06/19-22:07`. */
export const refah: SmsParser = {
  bankCode: 'refah',
  senders: [/refah/i],
  parse(body, receivedAt) {
    if (!BANK_NAME.test(body) && (!GLUED_SIGNED_LINE.test(body) || namesABank(body))) return null;
    const fields = fieldsOf(body);
    const movement = fields.find((f) => MOVEMENT.test(f.label) && leadingAmount(f.value) !== null);
    const signals = {
      body,
      amount: movement ? leadingAmount(movement.value) : null,
      deposit: movement?.label === 'واریز',
      withdrawal: /^(?:خرید|برداشت|قبض)$/.test(movement?.label ?? ''),
    };
    const account = findField(fields, /^حساب$/)?.value;
    return buildParsed('refah', signals, hintOf(account), findBankTime(body, { receivedAt }));
  },
};
