import type { WebhookEventType } from './generated/server-lists.js';
import type { EnumOf } from './graphql.js';

/**
 * Persian words for the API's codes. A map over one of the schema's enums is typed over it (and the
 * event types over the server's list), so a new value fails the typecheck until it has its words.
 */

export const PAYMENT_STATUS: Record<EnumOf<'PaymentStatus'>, string> = {
  pending: 'در انتظار',
  confirmed: 'تأیید شده',
  expired: 'منقضی',
  canceled: 'لغو شده',
  rejected: 'رد شده',
};

export const MESSAGE_STATUS: Record<EnumOf<'BankMessageStatus'>, string> = {
  needs_review: 'نیازمند بررسی',
  unmatched: 'بدون پرداخت',
  matched: 'تطبیق‌یافته',
  dismissed: 'کنار گذاشته',
  refunded: 'بازپرداخت‌شده',
  duplicate: 'تکراری',
  ignored: 'نادیده',
  received: 'دریافت‌شده',
  unparsed: 'خوانده‌نشده',
};

export const REVIEW_REASON: Record<string, string> = {
  amount_without_code: 'مبلغ بدون کد یکتا واریز شده',
  ambiguous_deposit: 'واریز با چند پرداخت جور است',
  unknown_sender: 'فرستندهٔ پیامک ناشناس است',
  balance_mismatch: 'ماندهٔ حساب با واریز نمی‌خواند',
  bank_mismatch: 'بانک پیامک با کارت نمی‌خواند',
  unrecognized_format: 'قالب پیامک ناشناخته است',
  payer_reported_no_deposit: 'پرداخت‌کننده واریز را گزارش داده ولی پیامکی نیامده',
};

export const CANDIDATE_REASON: Record<EnumOf<'CandidateReason'>, string> = {
  exact: 'همان مبلغ نهایی',
  base_amount: 'مبلغ بدون کد',
  unit_slip: 'اشتباه تومان و ریال',
  near_amount: 'مبلغ نزدیک',
};

export const DELIVERY_STATUS: Record<EnumOf<'WebhookDeliveryStatus'>, string> = {
  pending: 'در صف',
  succeeded: 'رسید',
  failed: 'ناموفق',
};

export const EVENT_TYPE: Record<WebhookEventType, string> = {
  'payment.confirmed': 'تأیید پرداخت',
  'payment.expired': 'انقضای پرداخت',
  'payment.rejected': 'رد پرداخت',
  'payment.canceled': 'لغو پرداخت',
  'payment.refunded': 'ثبت بازپرداخت',
  'payment.review_required': 'نیاز به بررسی',
  'bank_message.needs_review': 'واریز نیازمند بررسی',
  'device.offline': 'قطع گوشی',
  'device.online': 'وصل شدن گوشی',
};

export const ROLE: Record<EnumOf<'UserRole'>, string> = { owner: 'مالک', staff: 'کارمند', viewer: 'بیننده' };

export const ACTOR_KIND: Record<EnumOf<'AuditActorKind'>, string> = {
  merchant_key: 'کلید پذیرنده',
  project_key: 'کلید پروژه',
  user: 'کاربر',
  operator: 'اپراتور',
  system: 'سامانه',
};

/** The door a change came through (AuditEvent.via). */
export const AUDIT_VIA: Record<EnumOf<'AuditVia'>, string> = {
  api: 'API',
  dashboard: 'داشبورد',
  cli: 'خط فرمان اپراتور',
  telegram: 'تلگرام',
  bale: 'بله',
  system: 'سامانه',
};

export const LEDGER_KIND: Record<string, string> = {
  topup: 'افزایش اعتبار',
  fee: 'کارمزد',
  adjustment: 'اصلاح',
};

/** The words for a code, or undefined for one the table does not know (sent by a newer server). */
export const known = <V>(table: Readonly<Record<string, V>>, code: string): V | undefined =>
  Object.hasOwn(table, code) ? table[code] : undefined;

export const label = (table: Readonly<Record<string, string>>, code: string | null | undefined): string =>
  code == null ? '—' : (known(table, code) ?? code);
