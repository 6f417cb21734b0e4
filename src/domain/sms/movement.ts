import { AMOUNT, type Field, fieldsOf, hintOf, leadingAmount, type SignedAmount, type Signals } from './fields.js';
import type { Direction } from './types.js';

/**
 * The words a bank puts before a movement's amount. A deposit word alone may make a deposit; a
 * withdrawal word always wins; a neutral word (a rail such as `پایا`, or `انتقال`) needs a sign,
 * because the same rail carries money out as often as in.
 */
const DEPOSIT_WORD = /واریز|سود|بستانکار|نشست|به حساب شما/;
const WITHDRAWAL_WORD = /برداشت|خرید|پرداخت|قبض|کارمزد|بدهکار|کسر|قسط|اقساط|پایانه فروش|پرید|هزینه|انتقال وجه از/;
const NEUTRAL_WORD = /انتقال|اصلاحیه|پایا|ساتنا|پل|شتاب|حواله|خودپرداز|چک|تراکنش|کارت/;
// Phrases that contain a withdrawal word but describe no withdrawal.
const NOT_A_WITHDRAWAL = /قابل\s*برداشت/g;
// A batch payment (`پرداخت گروهی`) names the payer's side; a body that also says `واریز گروهی …` (Sepah's
// `واريز گروهي يارانه مرحله 186`) reports the batch credited to this account. Without that line it stays a payment.
const GROUP_CREDIT = /واریز\s*گروهی/;
const GROUP_PAYMENT = /پرداخت\s*گروهی/g;
// A label that names where money went or came from: its value is an account, never the amount.
const ACCOUNT_TARGET = /(?:کارت|حساب|سپرده|به|از|شماره)$/;
const SUM_LABEL = /^مبلغ(?:\s*(?:تراکنش|واریزی|برداشتی|کل))?$/;
const SENTENCE = new RegExp(
  String.raw`(?:مبلغ\s*)?([+-]?\s*${AMOUNT})\s*(ریال|تومان)\s*(?:[^\n\d]{0,40}?)(به حساب شما (?:واریز|نشست)|واریز شد|از حساب شما|برداشت شد|کسر (?:شد|گردید))`,
);

const INLINE_SUM = new RegExp(String.raw`مبلغ\s*:?\s*([+-]?\s*${AMOUNT})(?![\d,/.\-*])\s*(ریال|تومان)?`);

export type Movement = { amount: SignedAmount | null; deposit: boolean; withdrawal: boolean };

function isMovementLabel(label: string): boolean {
  return DEPOSIT_WORD.test(label) || WITHDRAWAL_WORD.test(label) || NEUTRAL_WORD.test(label);
}

// A password or code line carries digits that are never money.
const SECRET_LABEL = /رمز|کد|code|otp/i;

function amountIn(field: Field): SignedAmount | null {
  return field.value === '' || SECRET_LABEL.test(field.label) ? null : leadingAmount(field.value);
}

/** The amount of the movement, by the most explicit line that states one. */
function findAmount(fields: Field[], body: string): SignedAmount | null {
  const sum = fields.find((f) => SUM_LABEL.test(f.label) && amountIn(f) !== null);
  if (sum) return amountIn(sum);
  const labelled = fields.find((f) => f.label !== '' && isMovementLabel(f.label) && !ACCOUNT_TARGET.test(f.label) && amountIn(f) !== null);
  if (labelled) return amountIn(labelled);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (!f || f.label !== '') continue;
    const a = amountIn(f);
    if (!a) continue;
    // A bare line is the amount when signed (`+998,190`), or written as money right under a movement line.
    const underMovement = [fields[i - 1], fields[i - 2]].some((p) => p !== undefined && p.label !== '' && isMovementLabel(p.label));
    if (a.sign !== null || (underMovement && /,|ریال|تومان/.test(f.value))) return a;
  }
  const s = SENTENCE.exec(body);
  if (s?.[1]) return leadingAmount(`${s[1]} ${s[2]}`);
  // `واریز وجه به حساب شما به مبلغ 2,000,000 ریال انجام شد`: a مبلغ inside a sentence.
  const inline = INLINE_SUM.exec(body);
  return inline?.[1] ? leadingAmount(`${inline[1]} ${inline[2] ?? ''}`.trim()) : null;
}

/** Reads amount and direction words from any of the layouts Iranian banks use. */
export function readMovement(body: string): Movement {
  const fields = fieldsOf(body);
  const plain = body.replace(NOT_A_WITHDRAWAL, '');
  const words = GROUP_CREDIT.test(plain) ? plain.replace(GROUP_PAYMENT, '') : plain;
  return {
    amount: findAmount(fields, body),
    deposit: DEPOSIT_WORD.test(words),
    withdrawal: WITHDRAWAL_WORD.test(words),
  };
}

const TO_LABEL = /(?:^|\s)به(?:\s*(?:کارت|حساب|سپرده))?$|^(?:واریز|انتقال)\s*(?:به\s*)?(?:کارت|حساب)$/;
const FROM_LABEL = /(?:^|\s)از(?:\s*(?:کارت|حساب|سپرده))?$/;
const ACCOUNT_LABEL = /^(?:شماره\s*)?(?:حساب|کارت|سپرده)$/;
const INLINE_TO = /به\s*(?:کارت|حساب)\s*:?\s*(\d[\d*.\-]{3,}\d)/;
const INLINE_FROM = /از\s*(?:کارت|حساب)\s*:?\s*(\d[\d*.\-]{3,}\d)/;
const DOTTED_ACCOUNT = /^\d{1,5}(?:[.\-]\d{1,10}){2,3}$/;
// Compact layouts open with the account alone (`30101883751600`, Mehr Iran's `300463586351`).
const ACCOUNT_FIRST_LINE = /^\d{8,26}$/;

/** The account a compact layout opens with: a first line of digits only; null when the body opens otherwise. */
export function leadingAccount(body: string): string | null {
  const first = body.split('\n', 1)[0]?.trim() ?? '';
  return ACCOUNT_FIRST_LINE.test(first) ? first : null;
}

/** The account or card the SMS is about: for a deposit the receiving one, else the paying one. */
export function accountHintFor(body: string, direction: Direction): string | null {
  const fields = fieldsOf(body);
  const valueOf = (re: RegExp) => fields.find((f) => re.test(f.label) && hintOf(f.value) !== null && !/,/.test(f.value))?.value;
  const account = valueOf(ACCOUNT_LABEL) ?? fields.find((f) => f.label === '' && DOTTED_ACCOUNT.test(f.value))?.value;
  const to = valueOf(TO_LABEL);
  const from = valueOf(FROM_LABEL);
  // `برداشت: 126-800-1026659-1`: an account written on the movement's own label line.
  const onMovementLine = fields.find((f) => isMovementLabel(f.label) && /^\d[\d\-.*]{5,}$/.test(f.value) && /[\-.*]/.test(f.value))?.value;
  // `واریز مبلغ … ریال به کارت 6219****1234`: the target written inside the sentence.
  const inlineTo = INLINE_TO.exec(body)?.[1];
  const inlineFrom = INLINE_FROM.exec(body)?.[1];
  const chosen =
    direction === 'deposit'
      ? (to ?? account ?? onMovementLine ?? inlineTo)
      : (from ?? account ?? onMovementLine ?? inlineFrom ?? to);
  return hintOf(chosen);
}

/**
 * A bank parser's own reading, or the shared reader's when the bank's known layout found no
 * amount: a new template of a known bank is then still read, under the same safety rules.
 */
export function orMovement(s: Signals): Signals {
  if (s.amount !== null) return s;
  const m = readMovement(s.body);
  return { body: s.body, amount: m.amount, deposit: m.deposit, withdrawal: m.withdrawal || s.withdrawal };
}
