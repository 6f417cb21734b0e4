import type { WebhookEventType } from './generated/server-lists.js';
import type { EnumOf } from './graphql.js';
import { BANKS } from './generated/banks.js';

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
  'device.low_battery': 'باتری کم گوشی',
  'device.silent': 'گوشی بی‌پیامک',
  'card.balance_gap': 'پیامک گم‌شده (شکاف موجودی)',
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
  api: 'رابط برنامه‌نویسی',
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

/** What each audit action says, in the log and in a payment's timeline. */
export const AUDIT_ACTION: Record<string, string> = {
  'api_key.created': 'ساخت کلید',
  'api_key.revoked': 'باطل کردن کلید',
  'bank_message.attached': 'وصل کردن واریز به پرداخت',
  'bank_message.dismissed': 'کنار گذاشتن واریز',
  'bank_message.refunded': 'بازپرداخت واریز',
  'bank_message.needs_review': 'واریز نیازمند بررسی',
  'bank_message.sender_trusted': 'پذیرفتن خط پیامک بانک',
  'balance_gap.dismissed': 'کنار گذاشتن شکاف موجودی',
  'balance_gap.resolved': 'دادن پول شکاف موجودی به پرداخت',
  'card.balance_gap': 'شکاف در زنجیرهٔ موجودی کارت',
  'card.created': 'افزودن کارت',
  'card.updated': 'ویرایش کارت',
  'device.created': 'افزودن گوشی',
  'device.hook_issued': 'ساخت نشانی هوک',
  'device.hook_revoked': 'باطل کردن نشانی هوک',
  'device.low_battery': 'باتری کم گوشی',
  'device.offline': 'قطع گوشی',
  'device.online': 'وصل شدن گوشی',
  'device.revoked': 'باطل کردن گوشی',
  'device.silent': 'سکوت گوشی',
  'merchant.activated': 'فعال شدن حساب',
  'merchant.created': 'ساخت حساب',
  'merchant.credit_added': 'افزایش اعتبار',
  'merchant.deactivated': 'غیرفعال شدن حساب',
  'merchant.updated': 'ویرایش حساب',
  'merchant_key.created': 'ساخت کلید پذیرنده',
  'payment.canceled': 'لغو پرداخت',
  'payment.confirmed': 'تأیید پرداخت',
  'payment.confirmed_late': 'تأیید پس از مهلت',
  'payment.confirmed_manually': 'تأیید دستی پرداخت',
  'payment.created': 'ساخت پرداخت',
  'payment.deposit_attached': 'وصل شدن واریز',
  'payment.expired': 'انقضای پرداخت',
  'payment.gap_resolved': 'تأیید با شکاف موجودی',
  'payment.refunded': 'ثبت بازپرداخت',
  'payment.rejected': 'رد پرداخت',
  'payment.review_dismissed': 'کنار گذاشتن بررسی',
  'payment.review_required': 'نیاز به بررسی',
  'payment_link.created': 'ساخت پیوند پرداخت',
  'payment_link.updated': 'ویرایش پیوند پرداخت',
  'project.created': 'ساخت پروژه',
  'project.fee_set': 'تعیین کارمزد پروژه',
  'project.suspended': 'تعلیق پروژه',
  'project.suspension_lifted': 'رفع تعلیق پروژه',
  'project.updated': 'ویرایش پروژه',
  'refund.recorded': 'ثبت بازپرداخت',
  'user.created': 'افزودن کاربر',
  'user.password_changed': 'تغییر گذرواژه',
  'user.password_link_issued': 'پیوند تازهٔ گذرواژه',
  'user.password_set': 'تعیین گذرواژه',
  'user.password_reset_requested': 'درخواست بازیابی گذرواژه',
  'user.removed': 'حذف کاربر',
  'user.session_revoked': 'بستن نشست',
  'user.signed_in': 'ورود',
  'user.signed_out': 'خروج',
  'user.totp_disabled': 'خاموش کردن ورود دومرحله‌ای',
  'user.totp_enabled': 'روشن کردن ورود دومرحله‌ای',
  'user.totp_setup_started': 'شروع راه‌اندازی ورود دومرحله‌ای',
  'user.updated': 'ویرایش کاربر',
  'webhook_delivery.resent': 'ارسال دوبارهٔ وب‌هوک',
  'webhook_delivery.test_sent': 'ارسال وب‌هوک آزمایشی',
  'webhook_endpoint.disabled': 'غیرفعال شدن نشانی وب‌هوک',
  'webhook_endpoint.secret_rotated': 'رمز تازهٔ وب‌هوک',
  'webhook_endpoint.set': 'تعیین نشانی وب‌هوک',
  'credit.topup_created': 'درخواست افزایش اعتبار',
  'credit.topped_up': 'افزایش اعتبار',
};

/** The subject of an audit event. */
export const AUDIT_SUBJECT: Record<string, string> = {
  payment: 'پرداخت',
  bank_message: 'واریز',
  balance_gap: 'شکاف موجودی',
  refund: 'بازپرداخت',
  card: 'کارت',
  device: 'گوشی',
  project: 'پروژه',
  user: 'کاربر',
  merchant: 'حساب',
  merchant_key: 'کلید پذیرنده',
  api_key: 'کلید',
  payment_link: 'پیوند پرداخت',
  webhook_endpoint: 'نشانی وب‌هوک',
  webhook_delivery: 'ارسال وب‌هوک',
  chat_link: 'پیوند گفتگو',
};

/** The fields an audit event's changes and an API error's details name, as the forms call them. */
export const FIELD: Record<string, string> = {
  name: 'نام',
  displayName: 'نام در صفحهٔ پرداخت',
  active: 'فعال',
  amount: 'مبلغ',
  amountRequested: 'مبلغ درخواستی',
  amountFinal: 'مبلغ نهایی',
  status: 'وضعیت',
  role: 'نقش',
  email: 'ایمیل',
  password: 'گذرواژه',
  note: 'یادداشت',
  reason: 'دلیل',
  url: 'نشانی',
  events: 'رویدادها',
  cardNumber: 'شمارهٔ کارت',
  accountNumber: 'شمارهٔ حساب',
  holderName: 'نام دارنده',
  bankCode: 'بانک',
  smsSender: 'خط پیامک بانک',
  deviceId: 'گوشی',
  projectId: 'پروژه',
  openingBalance: 'موجودی فعلی',
  dailyAmountCap: 'سقف مبلغ روزانه',
  dailyCountCap: 'سقف تعداد روزانه',
  monthlyAmountCap: 'سقف مبلغ ماهانه',
  monthlyCountCap: 'سقف تعداد ماهانه',
  destinationCard: 'کارت مقصد',
  destinationSheba: 'شبای مقصد',
  reference: 'شمارهٔ پیگیری',
  timeLimitSeconds: 'مهلت پرداخت',
  lateWindowSeconds: 'مهلت دیرکرد',
  codeMode: 'کد یکتا',
  uniqueCodes: 'کد یکتا',
  logoUrl: 'نشانی لوگو',
  brandColor: 'رنگ',
  supportPhone: 'تلفن پشتیبانی',
  callbackHosts: 'میزبان‌های بازگشت',
  slug: 'نشانی پیوند',
  title: 'عنوان',
  description: 'توضیح',
  requireTotp: 'ورود دومرحله‌ای الزامی',
  totp: 'کد ورود دومرحله‌ای',
  code: 'کد',
  sandbox: 'آزمایشی',
  hookSecretPrefix: 'نشانی هوک',
  feeBps: 'کارمزد',
  credit: 'اعتبار',
  orderId: 'شناسهٔ سفارش',
  callbackUrl: 'نشانی بازگشت',
};

/** Each bank's Persian name, from the server's list (a new bank fails the typecheck until it is here: see generated/banks.ts). */
export function bankLabel(code: string | null | undefined): string {
  if (!code) return '—';
  return BANKS.find((b) => b.code === code)?.name ?? 'بانک دیگر';
}

/** Why a deposit stands as it does, in Persian (the API's `statusReason` is English, for the log). */
export function depositReason(status: string, reviewReason: string | null | undefined): string {
  if (reviewReason) return label(REVIEW_REASON, reviewReason);
  const byStatus: Record<string, string> = {
    unmatched: 'هیچ پرداخت بازی این مبلغ را ندارد.',
    matched: 'با پرداخت جور شد.',
    duplicate: 'همان واریزی است که پیش‌تر رسیده بود.',
    ignored: 'واریز نیست (برداشت یا پیامک دیگر).',
    unparsed: 'قالب پیامک خوانده نشد.',
    dismissed: 'کنار گذاشته شد.',
    refunded: 'به واریزکننده بازپرداخت شد.',
    received: 'در صف بررسی خودکار است.',
    needs_review: 'منتظر تصمیم شماست.',
  };
  return known(byStatus, status) ?? '—';
}
