import type { CheckoutView } from '../domain/checkout/view.js';
import { renderBrand, themeHref } from './brand.js';
import { amountLines } from './amount.js';
import { escapeHtml, faDigits, formatCountdown, groupCardNumber } from './format.js';
import { documentShell } from './shell.js';

export { renderNotFoundPage } from './shell.js';

/** Checkout tokens are 256 random bits in URL-safe base64 without padding. */
export const CHECKOUT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hidden = (visible: boolean) => (visible ? '' : ' hidden');

function amountPanel(v: CheckoutView): string {
  return `<section class="panel amount" aria-labelledby="amount-title">
      <h1 id="amount-title" class="panel-title">مبلغ قابل واریز</h1>
      ${amountLines(v.amountFinal, v.currency, { rial: 'amount-rial', toman: 'amount-toman' })}
      <button type="button" class="btn btn-secondary" id="copy-amount">کپی مبلغ</button>
      <p class="hint">دقیقاً همین مبلغ را واریز کنید. چند رقم آخر این مبلغ کد شناسایی پرداخت شماست؛ با مبلغ گرد یا متفاوت، پرداخت خودکار تأیید نمی‌شود.</p>
      <p id="description" class="description" dir="auto"${hidden(Boolean(v.description))}>${escapeHtml(v.description ?? '')}</p>
    </section>`;
}

function cardPanel(v: CheckoutView): string {
  const card = v.card;
  return `<section class="panel" aria-labelledby="card-title" id="card-panel"${hidden(Boolean(card))}>
      <h2 id="card-title" class="panel-title">به این کارت واریز کنید</h2>
      <p class="bank" id="bank-name">${escapeHtml(card ? (card.bankName ?? card.bankCode ?? '') : '')}</p>
      <p class="pan" id="card-number" dir="ltr">${card ? groupCardNumber(card.cardNumber) : ''}</p>
      <button type="button" class="btn btn-primary" id="copy-card">کپی شماره کارت</button>
      <p class="holder">به نام <strong><bdi id="holder-name">${escapeHtml(card?.holderName ?? '')}</bdi></strong></p>
    </section>`;
}

function field(name: string, label: string, attrs: string): string {
  return `<div class="field">
          <label for="${name}">${label}</label>
          <input id="${name}" name="${name}" ${attrs} dir="ltr" aria-describedby="${name}-error">
          <p class="field-error" id="${name}-error" hidden></p>
        </div>`;
}

function reportPanel(visible: boolean): string {
  return `<section class="panel" aria-labelledby="report-title" id="report-panel"${hidden(visible)}>
      <h2 id="report-title" class="panel-title">واریز کردید؟ به ما خبر دهید</h2>
      <p class="hint">این اطلاعات به تأیید سریع‌تر پرداخت کمک می‌کند. همه موارد اختیاری است.</p>
      <form id="report-form" novalidate>
        ${field('payerCardLast4', '۴ رقم آخر کارت شما', 'inputmode="numeric" autocomplete="off" maxlength="4"')}
        ${field('payerTrackingNumber', 'شماره پیگیری تراکنش', 'inputmode="numeric" autocomplete="off" maxlength="40"')}
        ${field('payerPhone', 'شماره موبایل', 'type="tel" inputmode="tel" autocomplete="tel" maxlength="20"')}
        <p class="form-error" id="form-error" role="alert" hidden></p>
        <button type="submit" class="btn btn-primary" id="report-submit">واریز کردم</button>
      </form>
    </section>`;
}

/**
 * The checkout page, painted complete on the server from the checkout view (no layout shift when
 * the script takes over), with the view itself in a JSON block for checkout.js. A payment that is
 * no longer pending starts on an empty result panel the script fills (and may redirect from).
 */
export function renderCheckoutPage(v: CheckoutView): string {
  const pending = v.status === 'pending';
  const reported = Boolean(v.payerReportedPaidAt);
  const p = v.project;
  const phone = p.supportPhone ?? '';
  const body = `${renderBrand({ name: p.displayName, logoUrl: p.logoUrl, subtitle: v.link?.title ?? null, sandbox: v.sandbox })}
<main id="checkout" data-token="${escapeHtml(v.token)}">
  <noscript><p class="notice notice-warn">برای دنبال کردن وضعیت پرداخت، جاوااسکریپت مرورگر را فعال کنید.</p></noscript>
  <div id="live-status" class="notice" role="status" aria-live="polite" hidden></div>

  <div id="pending-view"${hidden(pending)}>
    ${amountPanel(v)}
    ${cardPanel(v)}
    <section class="panel timer" aria-labelledby="timer-title">
      <h2 id="timer-title" class="panel-title">زمان باقی‌مانده</h2>
      <p class="countdown" role="timer" id="countdown" dir="ltr">${formatCountdown(v.remainingSeconds)}</p>
    </section>
    ${reportPanel(!reported)}
    <p class="notice notice-ok" id="reported-note"${hidden(reported)}>گزارش واریز شما ثبت شد. پس از رسیدن پیامک بانک، پرداخت تأیید می‌شود؛ لطفاً این صفحه را باز نگه دارید.</p>
    <div class="cancel-row">
      <button type="button" class="btn btn-ghost" id="cancel-btn">انصراف از پرداخت</button>
    </div>
  </div>

  <section class="panel result" id="result-view"${hidden(!pending)} aria-labelledby="result-title" aria-live="polite">
    <h1 id="result-title" class="result-title"></h1>
    <p id="result-text"></p>
    <p id="return-row" hidden><a class="btn btn-primary" id="return-link" href="#">بازگشت به فروشگاه</a></p>
    <p class="hint" id="return-note" hidden></p>
    <dl class="receipt" id="receipt" hidden>
      <dt>کد رهگیری</dt><dd id="receipt-code" dir="ltr"></dd>
      <dt>مبلغ</dt><dd id="receipt-amount"></dd>
    </dl>
  </section>
</main>
<footer class="foot">
  <p id="project-note" dir="auto"${hidden(Boolean(p.note))}>${escapeHtml(p.note ?? '')}</p>
  <p id="support"${hidden(Boolean(phone))}>پشتیبانی: <a id="support-phone" dir="ltr" href="tel:${escapeHtml(phone.replace(/[^+0-9]/g, ''))}">${faDigits(escapeHtml(phone))}</a></p>
  <p class="muted">پرداخت کارت به کارت · شماره کارت و مبلغ را پیش از واریز بررسی کنید.</p>
</footer>`;
  return documentShell({ title: `پرداخت به ${p.displayName}`, body, scripts: ['checkout.js'], data: v, theme: themeHref(p.color) });
}
