import type { getPublicLink } from '../domain/links/public.js';
import { renderBrand, themeHref } from './brand.js';
import { amountLines } from './amount.js';
import { escapeHtml, formatRials, formatTomans } from './format.js';
import { documentShell } from './shell.js';

export type PublicLink = Awaited<ReturnType<typeof getPublicLink>>;

// The payer's amount when the link sets none: the gateway's own bounds (docs/integration.md "1. Create a payment": 10,000 .. 1e9 rials).
const DEFAULT_MIN = '10000';
const DEFAULT_MAX = '1000000000';

function amountBlock(link: PublicLink): string {
  if (link.amount !== null) {
    return `<section class="panel amount" aria-labelledby="amount-title">
      <h1 id="amount-title" class="panel-title">مبلغ پرداخت</h1>
      ${amountLines(link.amount, link.currency)}
    </section>`;
  }
  const min = link.minAmount ?? DEFAULT_MIN;
  const max = link.maxAmount ?? DEFAULT_MAX;
  // The payer types in the link's unit; the other one is shown live beside it (link.js).
  const toman = link.currency === 'IRT';
  const unit = toman ? 'تومان' : 'ریال';
  const range = toman ? `از ${formatTomans(min)} تا ${formatTomans(max)} تومان` : `از ${formatRials(min)} تا ${formatRials(max)} ریال`;
  const other = toman ? `معادل <span id="amount-rial">۰</span> ریال` : `معادل <span id="amount-toman">۰</span> تومان`;
  return `<section class="panel" aria-labelledby="amount-title">
      <h1 id="amount-title" class="panel-title">مبلغ پرداخت را وارد کنید</h1>
      <div class="field">
        <label for="amount">مبلغ (${unit})</label>
        <input id="amount" name="amount" inputmode="numeric" autocomplete="off" maxlength="20" dir="ltr" required aria-describedby="amount-hint amount-other-line amount-error">
        <p class="hint" id="amount-hint">${range}</p>
        <p class="amount-live" id="amount-other-line" aria-live="polite">${other}</p>
        <p class="field-error" id="amount-error" hidden></p>
      </div>
    </section>`;
}

/**
 * The hosted page of a payment link (`GET /l/{slug}`): branding, title, description, the fixed
 * amount or a field for the payer's, an optional phone. link.js posts it and goes to /pay/{token}.
 */
export function renderLinkPage(link: PublicLink): string {
  const p = link.project;
  const body = `${renderBrand({ name: p.displayName, logoUrl: p.logoUrl, subtitle: null, sandbox: false })}
<main id="link" data-slug="${escapeHtml(link.slug)}">
  <section class="panel">
    <h2 class="link-title"><bdi>${escapeHtml(link.title)}</bdi></h2>
    ${link.description ? `<p class="description" dir="auto">${escapeHtml(link.description)}</p>` : ''}
  </section>
  <noscript><p class="notice notice-warn">برای پرداخت، جاوااسکریپت مرورگر را فعال کنید.</p></noscript>
  <form id="link-form" novalidate>
    ${amountBlock(link)}
    <section class="panel" aria-labelledby="phone-title">
      <h2 id="phone-title" class="panel-title">شماره موبایل (اختیاری)</h2>
      <div class="field">
        <label for="payerPhone">شماره موبایل شما</label>
        <input id="payerPhone" name="payerPhone" type="tel" inputmode="tel" autocomplete="tel" maxlength="20" dir="ltr" aria-describedby="payerPhone-error">
        <p class="field-error" id="payerPhone-error" hidden></p>
      </div>
    </section>
    <p class="notice notice-bad" id="form-error" role="alert" hidden></p>
    <button type="submit" class="btn btn-primary" id="pay-submit">ادامه و پرداخت</button>
  </form>
</main>
<footer class="foot">
  <p class="muted">پرداخت کارت به کارت · پس از ادامه، شماره کارت و مبلغ دقیق واریز را می‌بینید.</p>
</footer>`;
  return documentShell({ title: `${link.title} · ${p.displayName}`, body, scripts: ['link.js'], data: link, theme: themeHref(p.color) });
}
