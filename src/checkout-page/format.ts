/**
 * Server-side twins of checkout.js's number formatting: the server paints the first view and the
 * script repaints the same text, so the two must agree (the browser tests compare them).
 */
const FA = '۰۱۲۳۴۵۶۷۸۹';

export const faDigits = (s: string | number): string => String(s).replace(/[0-9]/g, (d) => FA[Number(d)]!);
const group3 = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '٬');

export const formatRials = (digits: string): string => faDigits(group3(digits));

/** Rials to toman (÷ 10), with a tenth when the rials do not end in 0. */
export function formatTomans(digits: string): string {
  const whole = digits.length > 1 ? digits.slice(0, -1) : '0';
  const tenth = digits.slice(-1);
  return faDigits(group3(whole)) + (tenth === '0' ? '' : `٫${faDigits(tenth)}`);
}

export function formatCountdown(seconds: number): string {
  const left = Math.max(0, seconds);
  const h = Math.floor(left / 3600);
  const mm = String(Math.floor((left % 3600) / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return faDigits((h ? `${h}:` : '') + mm + ':' + ss);
}

export const groupCardNumber = (pan: string): string => pan.replace(/(\d{4})(?=\d)/g, '$1 ');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function httpsUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
