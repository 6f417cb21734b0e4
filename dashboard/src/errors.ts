import type { CombinedError } from '@urql/core';
import type { ErrorCode } from './generated/server-lists.js';
import { known, ROLE } from './labels.js';

/**
 * The Persian sentence for each of the server's error codes, or null where the server's own message
 * says more (it names the fields, the limit or the host). Typed over the catalog: a new code fails
 * the typecheck until it is decided here.
 */
const BY_CODE: Record<ErrorCode, string | null> = {
  invalid_json: null,
  invalid_request: null,
  merchant_credit_exhausted: null,
  project_inactive: null,
  merchant_inactive: null,
  method_not_allowed: null,
  request_timeout: null,
  idempotency_conflict: null,
  conflict: null,
  payload_too_large: null,
  unsupported_media_type: null,
  callback_host_not_allowed: null,
  headers_too_large: null,
  internal_error: null,
  no_card_available: null,
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

export function errorCode(error: CombinedError | undefined): string | null {
  const code = error?.graphQLErrors[0]?.extensions?.code;
  return typeof code === 'string' ? code : null;
}

export function errorDetails(error: CombinedError | undefined): Record<string, unknown> {
  const details = error?.graphQLErrors[0]?.extensions?.details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
}

/** A sentence for the user: the catalog's Persian line, else the server's own message. */
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
  const sentence = code ? known(BY_CODE, code) : undefined;
  if (sentence) return sentence;
  return first?.message ?? 'خطایی رخ داد.';
}
