import { escapeHtml } from './format.js';

export const ASSETS = '/pay/assets';

/**
 * The HTML document every hosted page shares: Persian, right-to-left, own stylesheet and scripts
 * only (CSP forbids inline ones), the local favicon. `data` is a JSON block read by the script:
 * a data block is never executed, so CSP allows it.
 */
export function documentShell(opts: { title: string; body: string; scripts?: string[]; data?: unknown; description?: string; theme?: string | null }): string {
  const scripts = (opts.scripts ?? []).map((name) => `<script src="${ASSETS}/${name}" defer></script>\n`).join('');
  // `<` is escaped so no text inside the JSON can close the block.
  const data = opts.data === undefined ? '' : `<script type="application/json" id="initial-data">${JSON.stringify(opts.data).replace(/</g, '\\u003c')}</script>\n`;
  return `<!doctype html>
<html lang="fa" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<meta name="description" content="${escapeHtml(opts.description ?? 'پرداخت کارت به کارت')}">
<title>${escapeHtml(opts.title)}</title>
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="stylesheet" href="${ASSETS}/checkout.css">
${opts.theme ? `<link rel="stylesheet" href="${escapeHtml(opts.theme)}">\n` : ''}${scripts}</head>
<body>
${opts.body}
${data}</body>
</html>
`;
}

/** A page of one message: a refusal, a missing page. */
export function renderMessagePage(title: string, text: string): string {
  const body = `<main class="missing">
  <section class="panel result">
    <h1 class="result-title">${escapeHtml(title)}</h1>
    <p>${escapeHtml(text)}</p>
  </section>
</main>`;
  return documentShell({ title, body });
}

/** The Persian 404: a malformed or unknown payment token, an unknown or inactive link. */
export function renderNotFoundPage(text = 'این پیوند پرداخت معتبر نیست. لطفاً به فروشگاه بازگردید و دوباره تلاش کنید.'): string {
  return renderMessagePage('صفحه پیدا نشد', text);
}
