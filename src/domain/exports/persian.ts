import { bankName } from '../cards/banks.js';
import type { LedgerKind } from '../credit/ledger.js';
import type { MessageStatus } from '../bank-messages/messages.js';
import type { PaymentStatus } from '../payments/types.js';
import type { ColumnKind, ColumnSpec, Field, SqlRow } from './columns.js';

/**
 * Exports for people (`lang=fa`, the OpenAPI document's export parameters): Persian headers, the codes a
 * person reads (statuses, sources, reasons, kinds, banks, yes/no, live/test) in Persian, and a
 * width per column for the XLSX sheet. The machine default (`lang=en`) is untouched: field names
 * and codes as the API spells them. A code this table does not know is written as it is.
 */

const HEADERS: Record<string, string> = {
  id: 'شناسه',
  mode: 'حالت',
  orderId: 'شماره سفارش',
  status: 'وضعیت',
  currency: 'واحد پول درخواست',
  amountRequested: 'مبلغ درخواستی (ریال)',
  amountFinal: 'مبلغ نهایی (ریال)',
  amountReceived: 'مبلغ دریافتی (ریال)',
  refundedAmount: 'مبلغ بازگشتی (ریال)',
  fee: 'کارمزد (ریال)',
  code: 'کد یکتا (ریال)',
  cardLast4: 'چهار رقم آخر کارت مقصد',
  payerCardLast4: 'چهار رقم آخر کارت پرداخت‌کننده',
  payerPhone: 'تلفن پرداخت‌کننده',
  confirmationSource: 'روش تأیید',
  confirmedLate: 'تأیید دیرهنگام',
  receiptCode: 'کد رسید',
  createdAt: 'زمان ایجاد',
  confirmedAt: 'زمان تأیید',
  reviewReason: 'دلیل بررسی',
  statusReason: 'توضیح وضعیت',
  sender: 'فرستنده پیامک',
  bankCode: 'بانک',
  direction: 'نوع تراکنش',
  amount: 'مبلغ (ریال)',
  reference: 'شماره پیگیری',
  paymentId: 'شناسه پرداخت',
  simulated: 'شبیه‌سازی‌شده',
  body: 'متن پیامک',
  bankTime: 'زمان بانک',
  receivedAt: 'زمان دریافت',
  kind: 'نوع',
  balanceAfter: 'مانده پس از آن (ریال)',
  note: 'یادداشت',
};

const PAYMENT_STATUS: Record<PaymentStatus, string> = {
  pending: 'در انتظار پرداخت',
  confirmed: 'تأییدشده',
  expired: 'منقضی',
  rejected: 'ردشده',
  canceled: 'لغوشده',
};

const MESSAGE_STATUS: Record<MessageStatus, string> = {
  received: 'دریافت‌شده',
  matched: 'تطبیق‌یافته',
  needs_review: 'نیازمند بررسی',
  unmatched: 'بدون پرداخت',
  ignored: 'نادیده',
  unparsed: 'ناخوانا',
  duplicate: 'تکراری',
  dismissed: 'کنارگذاشته',
  refunded: 'بازگشت‌داده‌شده',
};

const LEDGER_KIND: Record<LedgerKind, string> = { topup: 'افزایش اعتبار', fee: 'کارمزد', adjustment: 'اصلاح' };

const VALUES: Record<string, Record<string, string>> = {
  confirmationSource: { auto_sms: 'خودکار (پیامک)', manual: 'دستی' },
  currency: { IRR: 'ریال', IRT: 'تومان' },
  reviewReason: {
    amount_without_code: 'مبلغ بدون کد یکتا',
    ambiguous_deposit: 'واریز مبهم',
    payer_reported_no_deposit: 'پرداخت‌کننده گفت پرداخته، واریزی نیامد',
    unknown_sender: 'فرستنده ناشناس',
    balance_mismatch: 'ناهمخوانی مانده',
    bank_mismatch: 'بانک ناهمخوان',
    unrecognized_format: 'قالب ناشناخته',
  },
  direction: { deposit: 'واریز', withdrawal: 'برداشت', otp: 'رمز یکبار مصرف', balance: 'مانده', other: 'دیگر' },
  mode: { live: 'واقعی', test: 'آزمایشی' },
};

const YES_NO = (v: unknown) => (v === true ? 'بله' : v === false ? 'خیر' : null);

/** The Persian reading of one code column, by export (a `status` of a payment is not a message's). */
function valuesOf(exportKind: string, name: string): ((v: unknown) => string | null) | null {
  const table =
    name === 'status' ? (exportKind === 'payments' ? PAYMENT_STATUS : MESSAGE_STATUS) : name === 'kind' ? LEDGER_KIND : name === 'bankCode' ? null : VALUES[name];
  if (name === 'bankCode') return (v) => (typeof v === 'string' ? bankName(v) : null);
  if (!table) return null;
  return (v) => (typeof v === 'string' ? ((table as Record<string, string>)[v] ?? v) : null);
}

/** Characters a column is wide, by what it holds (Persian text is about as wide per character). */
const WIDTHS: Record<ColumnKind, number> = { code: 16, text: 24, amount: 18, integer: 12, boolean: 12, instant: 21 };

/**
 * The Persian fields: the same columns and order as `fields` (from `fieldsOf(columns)`), headers
 * and code values in Persian, each with its width. An instant's two columns read
 * `<label> (شمسی، تهران)` and `<label> (UTC)`.
 */
export function persianFields(exportKind: string, columns: ColumnSpec, fields: readonly Field[]): (Field & { width: number })[] {
  const out: (Field & { width: number })[] = [];
  let i = 0;
  for (const [name, kind] of columns) {
    const label = HEADERS[name] ?? name;
    if (kind === 'instant') {
      const [jalali, iso] = [fields[i++]!, fields[i++]!];
      out.push({ ...jalali, header: `${label} (شمسی، تهران)`, width: 21 }, { ...iso, header: `${label} (UTC)`, width: 26 });
      continue;
    }
    const field = fields[i++]!;
    const values = kind === 'boolean' ? YES_NO : kind === 'code' ? valuesOf(exportKind, name) : null;
    const read = values ? (row: SqlRow) => values(field.read(row)) : field.read;
    const width = name === 'id' || name === 'paymentId' ? 38 : name === 'body' ? 60 : Math.max(WIDTHS[kind], label.length + 4);
    out.push({ ...field, header: label, read, width });
  }
  return out;
}
