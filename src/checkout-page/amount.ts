import type { Currency } from '../domain/banking/currency.js';
import { escapeHtml, formatRials, formatTomans } from './format.js';

/**
 * An amount of rials in both units, the shop's first: large in the unit the shop sent it in
 * (`currency`), "equal to" in the other beneath. `ids` name the number elements a script repaints
 * (checkout.js writes the same text, so nothing moves).
 */
export function amountLines(rials: string, currency: Currency, ids: { rial?: string; toman?: string } = {}): string {
  const id = (name?: string) => (name ? ` id="${name}"` : '');
  const rial = `<data${id(ids.rial)} value="${escapeHtml(rials)}">${formatRials(rials)}</data>`;
  const toman = `<span${id(ids.toman)}>${formatTomans(rials)}</span>`;
  if (currency === 'IRT') {
    return `<p class="amount-main amount-toman">${toman} <span class="unit">تومان</span></p>
      <p class="amount-also amount-rial">معادل ${rial} ریال</p>`;
  }
  return `<p class="amount-main amount-rial">${rial} <span class="unit">ریال</span></p>
      <p class="amount-also amount-toman">معادل ${toman} تومان</p>`;
}
