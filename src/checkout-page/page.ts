/** Checkout tokens are 256 random bits in URL-safe base64 without padding. */
export const CHECKOUT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const ASSETS = '/pay/assets';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function documentShell(title: string, body: string, withScript: boolean): string {
  return `<!doctype html>
<html lang="fa" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${ASSETS}/checkout.css">
${withScript ? `<script src="${ASSETS}/checkout.js" defer></script>\n` : ''}</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The checkout shell: every section is in the HTML, hidden until checkout.js fills it from the
 * checkout view. The token reaches the script through `data-token` (CSP forbids inline scripts).
 */
export function renderCheckoutPage(token: string): string {
  const body = `<header class="brand" id="brand">
  <div class="brand-row">
    <img id="project-logo" class="logo" alt="" width="40" height="40" hidden>
    <div class="brand-text">
      <p class="brand-name" id="project-name">درگاه پرداخت کارت به کارت</p>
      <p class="brand-sub" id="link-title" hidden></p>
    </div>
    <span class="badge" id="sandbox-badge" hidden>محیط آزمایشی</span>
  </div>
</header>
<main id="checkout" data-token="${escapeHtml(token)}" aria-busy="true">
  <noscript><p class="notice notice-warn">برای پرداخت، جاوااسکریپت مرورگر را فعال کنید.</p></noscript>
  <p class="loading" id="loading">در حال بارگذاری اطلاعات پرداخت…</p>
  <div id="live-status" class="notice" role="status" aria-live="polite" hidden></div>

  <div id="pending-view" hidden>
    <section class="panel amount" aria-labelledby="amount-title">
      <h1 id="amount-title" class="panel-title">مبلغ قابل واریز</h1>
      <p class="amount-rial"><data id="amount-rial" value=""></data> <span class="unit">ریال</span></p>
      <p class="amount-toman">معادل <span id="amount-toman"></span> تومان</p>
      <p class="hint">دقیقاً همین مبلغ را واریز کنید. چند رقم آخر این مبلغ کد شناسایی پرداخت شماست؛ با مبلغ گرد یا متفاوت، پرداخت خودکار تأیید نمی‌شود.</p>
      <p id="description" class="description" hidden></p>
    </section>

    <section class="panel" aria-labelledby="card-title" id="card-panel">
      <h2 id="card-title" class="panel-title">به این کارت واریز کنید</h2>
      <p class="bank" id="bank-name"></p>
      <p class="pan" id="card-number" dir="ltr"></p>
      <button type="button" class="btn btn-primary" id="copy-card">کپی شماره کارت</button>
      <p class="holder">به نام <strong id="holder-name"></strong></p>
    </section>

    <section class="panel timer" aria-labelledby="timer-title">
      <h2 id="timer-title" class="panel-title">زمان باقی‌مانده</h2>
      <p class="countdown" role="timer" id="countdown" dir="ltr">--:--</p>
    </section>

    <section class="panel" aria-labelledby="report-title" id="report-panel">
      <h2 id="report-title" class="panel-title">واریز کردید؟ به ما خبر دهید</h2>
      <p class="hint">این اطلاعات به تأیید سریع‌تر پرداخت کمک می‌کند. همه موارد اختیاری است.</p>
      <form id="report-form" novalidate>
        <div class="field">
          <label for="payerCardLast4">۴ رقم آخر کارت شما</label>
          <input id="payerCardLast4" name="payerCardLast4" inputmode="numeric" autocomplete="off" maxlength="4" dir="ltr" aria-describedby="payerCardLast4-error">
          <p class="field-error" id="payerCardLast4-error" hidden></p>
        </div>
        <div class="field">
          <label for="payerTrackingNumber">شماره پیگیری تراکنش</label>
          <input id="payerTrackingNumber" name="payerTrackingNumber" inputmode="numeric" autocomplete="off" maxlength="40" dir="ltr" aria-describedby="payerTrackingNumber-error">
          <p class="field-error" id="payerTrackingNumber-error" hidden></p>
        </div>
        <div class="field">
          <label for="payerPhone">شماره موبایل</label>
          <input id="payerPhone" name="payerPhone" type="tel" inputmode="tel" autocomplete="tel" maxlength="20" dir="ltr" aria-describedby="payerPhone-error">
          <p class="field-error" id="payerPhone-error" hidden></p>
        </div>
        <p class="form-error" id="form-error" role="alert" hidden></p>
        <button type="submit" class="btn btn-primary" id="report-submit">واریز کردم</button>
      </form>
    </section>
    <p class="notice notice-ok" id="reported-note" hidden>گزارش واریز شما ثبت شد. پس از رسیدن پیامک بانک، پرداخت تأیید می‌شود؛ لطفاً این صفحه را باز نگه دارید.</p>

    <div class="cancel-row">
      <button type="button" class="btn btn-ghost" id="cancel-btn">انصراف از پرداخت</button>
    </div>
  </div>

  <section class="panel result" id="result-view" hidden aria-labelledby="result-title">
    <h1 id="result-title" class="result-title"></h1>
    <p id="result-text"></p>
    <dl class="receipt" id="receipt" hidden>
      <dt>کد رهگیری</dt><dd id="receipt-code" dir="ltr"></dd>
      <dt>مبلغ</dt><dd id="receipt-amount"></dd>
    </dl>
  </section>
</main>
<footer class="foot">
  <p id="project-note" hidden></p>
  <p id="support" hidden>پشتیبانی: <a id="support-phone" dir="ltr" href="#"></a></p>
  <p class="muted">پرداخت کارت به کارت · شماره کارت و مبلغ را پیش از واریز بررسی کنید.</p>
</footer>`;
  return documentShell('پرداخت کارت به کارت', body, true);
}

/** The page for a malformed token or an unknown path under /pay/. */
export function renderNotFoundPage(): string {
  const body = `<main class="missing">
  <section class="panel result">
    <h1 class="result-title">صفحه پیدا نشد</h1>
    <p>این پیوند پرداخت معتبر نیست. لطفاً به فروشگاه بازگردید و دوباره تلاش کنید.</p>
  </section>
</main>`;
  return documentShell('صفحه پیدا نشد', body, false);
}
