import type { CombinedError } from '@urql/core';

const BY_CODE: Record<string, string> = {
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
const ROLE_NAME: Record<string, string> = { owner: 'مالک', staff: 'کارمند', viewer: 'بیننده' };

export function errorText(error: CombinedError | undefined): string | null {
  if (!error) return null;
  if (error.networkError) return 'ارتباط با سرور برقرار نشد؛ دوباره تلاش کنید.';
  const first = error.graphQLErrors[0];
  const code = errorCode(error);
  // The server names the role it saw: one changed by an owner since this page was opened shows here.
  const role = errorDetails(error).role;
  if (code === 'forbidden' && typeof role === 'string' && ROLE_NAME[role]) {
    return `نقش شما («${ROLE_NAME[role]}») اجازهٔ این کار را نمی‌دهد؛ مالک حساب می‌تواند نقش شما را تغییر دهد.`;
  }
  if (code && BY_CODE[code]) return BY_CODE[code];
  return first?.message ?? 'خطایی رخ داد.';
}
