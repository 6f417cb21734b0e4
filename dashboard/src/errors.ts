import type { CombinedError } from '@urql/core';
import type { ErrorCode } from './generated/server-lists.js';
import { faDigits } from './format.js';
import { FIELD, known, ROLE } from './labels.js';

/**
 * The Persian sentence for each of the server's error codes (the API's `message`s are English, for
 * programmers). Typed over the catalog: a new code fails the typecheck until it has its sentence.
 */
const BY_CODE: Record<ErrorCode, string> = {
  invalid_json: 'درخواست خوانده نشد؛ صفحه را دوباره بار کنید.',
  invalid_request: 'بعضی از خانه‌ها درست پر نشده‌اند.',
  merchant_credit_exhausted: 'اعتبار کارمزد شما تمام شده است؛ از صفحهٔ «اعتبار و کارمزد» آن را افزایش دهید.',
  project_inactive: 'این پروژه فعال نیست.',
  merchant_inactive: 'حساب شما فعال نیست؛ با پشتیبانی درگاه تماس بگیرید.',
  method_not_allowed: 'این کار پشتیبانی نمی‌شود.',
  request_timeout: 'پاسخ سرور دیر شد؛ دوباره تلاش کنید.',
  idempotency_conflict: 'همین درخواست هنوز در جریان است؛ چند لحظه بعد صفحه را ببینید.',
  conflict: 'با داده‌های موجود جور نیست (شاید همین مورد پیش‌تر ثبت شده است).',
  payload_too_large: 'داده‌ها بیش از اندازه بزرگ است.',
  unsupported_media_type: 'این نوع داده پذیرفته نمی‌شود.',
  callback_host_not_allowed: 'میزبان نشانی بازگشت در فهرست میزبان‌های مجاز پروژه نیست.',
  headers_too_large: 'درخواست بیش از اندازه بزرگ است.',
  internal_error: 'خطایی در سرور رخ داد؛ دوباره تلاش کنید.',
  no_card_available: 'کارتی برای گرفتن این پرداخت آماده نیست (سقف‌ها پر شده یا گوشی آفلاین است).',
  unauthorized: 'نشست شما پایان یافته است؛ دوباره وارد شوید.',
  forbidden: 'نقش شما اجازهٔ این کار را نمی‌دهد.',
  not_found: 'پیدا نشد.',
  invalid_state: 'وضعیت فعلی اجازهٔ این کار را نمی‌دهد.',
  amount_mismatch: 'مبلغ واریز با مبلغ پرداخت نمی‌خواند.',
  refund_exceeds_payment: 'جمع بازپرداخت‌ها از مبلغ دریافتی بیشتر می‌شود.',
  rate_limited: 'درخواست‌ها زیاد است؛ کمی بعد دوباره تلاش کنید.',
  unavailable: 'سرویس لحظه‌ای در دسترس نیست؛ چند ثانیه بعد دوباره تلاش کنید.',
  limit_reached: 'به سقف مجاز رسیده‌اید.',
  slug_taken: 'این نشانی پیوند قبلاً گرفته شده است.',
  sandbox_only: 'فقط در پروژهٔ آزمایشی.',
  totp_required: 'مالک حساب ورود دومرحله‌ای را برای همه لازم کرده است؛ تا آن را برای خودتان راه نیندازید، این کار از شما پذیرفته نمی‌شود.',
};

/** The server's English words about one field ("must be 16 digits"), in Persian; a plain "is not right" for the rest. */
const FIELD_MESSAGES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/must be (\d+) digits/i, (m) => `باید ${faDigits(m[1] ?? '')} رقم باشد.`],
  [/(\d+) to (\d+) digits|between (\d+) and (\d+) digits/i, (m) => `باید ${faDigits(m[1] ?? m[3] ?? '')} تا ${faDigits(m[2] ?? m[4] ?? '')} رقم باشد.`],
  [/check digit|luhn|not a valid card/i, () => 'شمارهٔ کارت درست نیست (رقم کنترل نمی‌خواند).'],
  [/required|must not be empty|is missing/i, () => 'لازم است.'],
  [/at most (\d+) characters|too long/i, (m) => (m[1] ? `حداکثر ${faDigits(m[1])} نویسه.` : 'بیش از اندازه بلند است.')],
  [/at least (\d+) characters|too short/i, (m) => (m[1] ? `دست‌کم ${faDigits(m[1])} نویسه.` : 'کوتاه است.')],
  [/greater than 0|positive|at least 1\b|>\s*0\b/i, () => 'باید بیشتر از صفر باشد.'],
  [/>=\s*(\d+)/, (m) => `باید دست‌کم ${faDigits(m[1] ?? '')} باشد.`],
  [/<=\s*(\d+)/, (m) => `باید حداکثر ${faDigits(m[1] ?? '')} باشد.`],
  [/at least (\d+)/i, (m) => `باید دست‌کم ${faDigits(m[1] ?? '')} باشد.`],
  [/at most (\d+)/i, (m) => `باید حداکثر ${faDigits(m[1] ?? '')} باشد.`],
  [/https|url/i, () => 'نشانی درست نیست (با https:// شروع شود).'],
  [/email/i, () => 'ایمیل درست نیست.'],
  [/already|taken|in use/i, () => 'پیش‌تر ثبت شده است.'],
  [/unknown bank|bank/i, () => 'بانک شناخته نیست.'],
  [/must be one of/i, () => 'یکی از گزینه‌ها را انتخاب کنید.'],
  [/colou?r|hex/i, () => 'رنگ را به شکل ‎#1d4ed8 بنویسید.'],
];

export function fieldMessage(message: string): string {
  for (const [pattern, say] of FIELD_MESSAGES) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return 'درست نیست.';
}

/** The fields an invalid_request names (its `details.fields`), each with its Persian sentence. */
export function fieldErrors(error: CombinedError | undefined): Record<string, string> {
  const fields = errorDetails(error).fields;
  const out: Record<string, string> = {};
  if (!Array.isArray(fields)) return out;
  for (const f of fields as { field?: unknown; message?: unknown }[]) {
    if (typeof f?.field !== 'string') continue;
    // `input.cardNumber` and `cardNumber` name the same input.
    const name = f.field.split('.').pop() ?? f.field;
    out[name] = fieldMessage(typeof f.message === 'string' ? f.message : '');
  }
  return out;
}

export function errorCode(error: CombinedError | undefined): string | null {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : null;
}

export function errorDetails(error: CombinedError | undefined): Record<string, unknown> {
  const details = error?.graphQLErrors[0]?.extensions?.details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
}

/** A sentence for the user, in Persian: from the code, and for invalid input the fields it names (never the server's English message). */
export function errorText(error: CombinedError | undefined): string | null {
  if (!error) return null;
  if (error.networkError) return 'ارتباط با سرور برقرار نشد؛ دوباره تلاش کنید.';
  const first = error.graphQLErrors[0];
  const code = errorCode(error);
  // The server names the role it saw: one changed by an owner since this page was opened shows here.
  const role = errorDetails(error).role;
  const roleName = typeof role === 'string' ? known(ROLE, role) : undefined;
  if (code === 'forbidden' && roleName) {
    return `نقش شما («${roleName}») اجازهٔ این کار را نمی‌دهد؛ مالک حساب می‌تواند نقش شما را تغییر دهد.`;
  }
  if (code === 'invalid_request') {
    const fields = Object.entries(fieldErrors(error));
    if (fields.length) return fields.map(([name, text]) => `«${known(FIELD, name) ?? 'یک خانه'}»: ${text}`).join(' ');
  }
  const sentence = code ? known(BY_CODE, code) : undefined;
  if (sentence) return sentence;
  // A code this dashboard does not know yet (a newer server): never its English message.
  return first ? 'درخواست پذیرفته نشد.' : 'خطایی رخ داد.';
}
