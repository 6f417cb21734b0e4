// Hosted checkout: the server paints the first view (and hands it over in #initial-data); this
// follows it live (GraphQL over SSE, else polling) and, once the payment is final, returns the
// payer to the merchant or ends on a receipt.
'use strict';

(() => {
  const root = document.getElementById('checkout');
  const token = root.dataset.token;
  const api = '/v1/checkout/' + encodeURIComponent(token);
  const $ = (id) => document.getElementById(id);

  const FIELDS = 'token status amountRequested amountFinal amountMode currency displayUnit autoConfirm description orderId ' +
    'expiresAt remainingSeconds callbackUrl payerReportedPaidAt confirmedAt receiptCode sandbox paymentId lateUntil ' +
    'card { bankCode bankName cardNumber holderName } project { displayName logoUrl color note supportPhone } link { slug title }';
  const REPORT_FIELDS = ['payerCardLast4', 'payerTrackingNumber', 'payerPhone'];
  const FIELD_MESSAGES = {
    payerCardLast4: '۴ رقم آخر کارت را به‌درستی وارد کنید.',
    payerTrackingNumber: 'شماره پیگیری حداکثر ۴۰ نویسه است.',
    payerPhone: 'شماره موبایل باید بین ۱۰ تا ۲۰ رقم باشد.',
  };
  // A later view never moves a payment back: expired may still become confirmed, nothing else.
  const RANK = { pending: 0, expired: 1, confirmed: 2, canceled: 2, rejected: 2 };
  const POLL_MS = 3000;
  // Long enough to read the outcome; the return link is there for a payer who does not wait.
  const REDIRECT_SECONDS = 8;

  let view = null;
  let deadline = 0;
  let skew = 0;
  let finished = false;
  let source = null;
  let pollTimer = 0;
  let lateTimer = 0;

  const FA = '۰۱۲۳۴۵۶۷۸۹';
  const faDigits = (s) => String(s).replace(/[0-9]/g, (d) => FA[d]);
  const group3 = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '٬');
  const rials = (s) => faDigits(group3(s));
  const tomans = (s) => {
    const whole = s.length > 1 ? s.slice(0, -1) : '0';
    const tenth = s.slice(-1);
    return faDigits(group3(whole)) + (tenth === '0' ? '' : '٫' + faDigits(tenth));
  };
  const serverNow = () => Date.now() - skew;

  function show(el, visible) {
    el.hidden = !visible;
  }

  function setStatus(text, tone) {
    const el = $('live-status');
    el.textContent = text || '';
    el.className = 'notice' + (tone ? ' notice-' + tone : '');
    show(el, Boolean(text));
  }

  function httpsUrl(value) {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' ? url : null;
    } catch {
      return null;
    }
  }

  function renderProject(v) {
    const p = v.project || {};
    const name = p.displayName || 'درگاه پرداخت کارت به کارت';
    $('project-name').textContent = name;
    document.title = 'پرداخت به ' + name;
    const logo = p.logoUrl && httpsUrl(p.logoUrl);
    const img = $('project-logo');
    if (logo && img.getAttribute('src') !== logo.href) img.src = logo.href;
    show(img, Boolean(logo));
    $('link-title').textContent = v.link ? v.link.title : '';
    show($('link-title').parentElement, Boolean(v.link && v.link.title));
    show($('sandbox-badge'), Boolean(v.sandbox));
    $('project-note').textContent = p.note || '';
    show($('project-note'), Boolean(p.note));
    const phone = $('support-phone');
    phone.textContent = p.supportPhone ? faDigits(p.supportPhone) : '';
    phone.href = 'tel:' + String(p.supportPhone || '').replace(/[^+0-9]/g, '');
    show($('support'), Boolean(p.supportPhone));
  }

  function renderPending(v) {
    // Same text as the server painted: rewriting it moves nothing.
    $('amount-rial').textContent = rials(v.amountFinal);
    $('amount-rial').value = v.amountFinal;
    $('amount-toman').textContent = tomans(v.amountFinal);
    $('description').textContent = v.description || '';
    show($('description'), Boolean(v.description));
    const card = v.card;
    show($('card-panel'), Boolean(card));
    if (card) {
      $('bank-name').textContent = card.bankName || card.bankCode || '';
      $('card-number').textContent = card.cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
      $('holder-name').textContent = card.holderName || '';
    }
    const reported = Boolean(v.payerReportedPaidAt);
    show($('report-panel'), !reported);
    show($('reported-note'), reported);
    show($('result-view'), false);
    show($('pending-view'), true);
    tick();
  }

  function showResult(tone, title, text, extra) {
    show($('pending-view'), false);
    const box = $('result-view');
    box.className = 'panel result ' + tone;
    $('result-title').textContent = title;
    $('result-text').textContent = text;
    show($('receipt'), Boolean(extra && extra.receipt));
    show($('return-row'), Boolean(extra && extra.target));
    show($('return-note'), Boolean(extra && extra.target));
    if (extra && extra.target) $('return-link').href = extra.target;
    if (extra && extra.receipt) {
      $('receipt-code').textContent = extra.receipt.code || '—';
      // The shop's unit first, as the amount panel shows it.
      const r = extra.receipt;
      $('receipt-amount').textContent = r.currency === 'IRT'
        ? tomans(r.amount) + ' تومان (' + rials(r.amount) + ' ریال)'
        : rials(r.amount) + ' ریال (' + tomans(r.amount) + ' تومان)';
    }
    show(box, true);
  }

  function callbackTarget(v, status) {
    let url = null;
    try {
      url = v.callbackUrl ? new URL(v.callbackUrl) : null;
    } catch {
      return null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
    url.searchParams.set('service_token', v.token);
    url.searchParams.set('service_status', status);
    url.searchParams.set('service_ref', v.paymentId || '');
    url.searchParams.set('order_id', v.orderId || '');
    return url.href;
  }

  const RESULTS = {
    confirmed: ['ok', 'پرداخت شما تأیید شد', 'از پرداخت شما سپاسگزاریم.'],
    expired: ['bad', 'زمان پرداخت به پایان رسید', 'اگر مبلغ را واریز کرده‌اید، با پشتیبانی فروشگاه تماس بگیرید.'],
    canceled: ['bad', 'پرداخت لغو شد', 'این پرداخت به درخواست شما لغو شد.'],
    rejected: ['bad', 'پرداخت رد شد', 'این پرداخت توسط فروشنده رد شد.'],
  };

  function finish(v, status) {
    finished = true;
    stopListening();
    clearTimeout(lateTimer);
    setStatus('');
    const [tone, title, text] = RESULTS[status];
    const target = callbackTarget(v, status);
    if (target) {
      showResult(tone, title, text, { target });
      let left = REDIRECT_SECONDS;
      const note = () => ($('return-note').textContent = faDigits(left) + ' ثانیه دیگر به فروشگاه بازمی‌گردید.');
      note();
      const timer = setInterval(() => {
        left -= 1;
        if (left > 0) return note();
        clearInterval(timer);
        location.replace(target);
      }, 1000);
      return;
    }
    const receipt = status === 'confirmed' ? { code: v.receiptCode, amount: v.amountFinal, currency: v.currency } : null;
    showResult(tone, title, text, { receipt });
  }

  function waitForLateDeposit(v) {
    setStatus('');
    showResult('wait', 'در انتظار تأیید', 'پرداخت شما در حال بررسی است؛ لطفاً صبر کنید. ' +
      'زمان پرداخت تمام شده، اما چون واریز را گزارش کرده‌اید، تا رسیدن پیامک بانک منتظر می‌مانیم. این صفحه را نبندید.');
    clearTimeout(lateTimer);
    lateTimer = setTimeout(() => finish(view, 'expired'), Math.max(0, Date.parse(v.lateUntil) - serverNow()));
    if (!source) startPolling();
  }

  function accept(v) {
    if (finished || !v || !(v.status in RANK)) return;
    if (view && RANK[v.status] < RANK[view.status]) return;
    view = v;
    if (v.status === 'pending' && v.remainingSeconds > 0) {
      deadline = Date.now() + v.remainingSeconds * 1000;
      skew = Date.now() - (Date.parse(v.expiresAt) - v.remainingSeconds * 1000);
    }
    setStatus('');
    renderProject(v);
    if (v.status === 'pending') renderPending(v);
    else if (v.status === 'expired' && v.payerReportedPaidAt && serverNow() < Date.parse(v.lateUntil)) waitForLateDeposit(v);
    else finish(v, v.status);
  }

  function notFound() {
    finished = true;
    stopListening();
    showResult('bad', 'پرداخت پیدا نشد', 'این پیوند پرداخت معتبر نیست. لطفاً به فروشگاه بازگردید و دوباره تلاش کنید.');
  }

  async function fetchView() {
    const res = await fetch(api, { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (res.status === 404) {
      notFound();
      return null;
    }
    if (!res.ok) throw new Error('HTTP ' + res.status);
    return res.json();
  }

  function refresh() {
    fetchView().then(accept, () => {});
  }

  function startPolling() {
    if (pollTimer || finished) return;
    const poll = async () => {
      try {
        accept(await fetchView());
      } catch {
        // A lost connection is retried on the next round.
      }
      pollTimer = finished ? 0 : setTimeout(poll, POLL_MS);
    };
    pollTimer = setTimeout(poll, 0);
  }

  function stopListening() {
    if (source) source.close();
    source = null;
    clearTimeout(pollTimer);
    pollTimer = 0;
  }

  function fallBackToPolling() {
    if (source) source.close();
    source = null;
    startPolling();
  }

  function listen() {
    if (finished) return;
    if (typeof EventSource !== 'function') return startPolling();
    const query = 'subscription($token: String!) { checkoutStatus(token: $token) { ' + FIELDS + ' } }';
    source = new EventSource('/graphql?query=' + encodeURIComponent(query) +
      '&variables=' + encodeURIComponent(JSON.stringify({ token })));
    source.addEventListener('next', (event) => {
      let message = null;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const next = message && message.data && message.data.checkoutStatus;
      if (next) accept(next);
      else fallBackToPolling();
    });
    source.addEventListener('complete', fallBackToPolling);
    source.addEventListener('error', fallBackToPolling);
  }

  function tick() {
    if (!view || view.status !== 'pending') return;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const h = Math.floor(left / 3600);
    const mm = String(Math.floor((left % 3600) / 60)).padStart(2, '0');
    const ss = String(left % 60).padStart(2, '0');
    const el = $('countdown');
    el.textContent = faDigits((h ? h + ':' : '') + mm + ':' + ss);
    el.classList.toggle('low', left < 60);
    if (left === 0) setStatus('زمان پرداخت به پایان رسید؛ در حال بررسی وضعیت…', 'warn');
  }

  /** Copies `text`; without clipboard access, selects `shown` so the payer can copy it by hand. */
  async function copyText(button, text, shown, label) {
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(shown);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try {
        done = document.execCommand('copy');
      } catch {
        done = false;
      }
    }
    button.textContent = done ? 'کپی شد' : 'انتخاب شد؛ آن را کپی کنید';
    setTimeout(() => (button.textContent = label), 2500);
  }

  function post(path, body) {
    return fetch(api + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body || {}),
    });
  }

  function requestFailed(status, code) {
    if (status === 409) {
      refresh();
      return 'این پرداخت دیگر در انتظار واریز نیست.';
    }
    if (status === 429 || code === 'rate_limited') return 'درخواست‌ها زیاد است؛ چند لحظه بعد دوباره تلاش کنید.';
    return 'درخواست انجام نشد؛ دوباره تلاش کنید.';
  }

  function clearFieldErrors() {
    for (const name of REPORT_FIELDS) {
      $(name).removeAttribute('aria-invalid');
      show($(name + '-error'), false);
    }
    show($('form-error'), false);
  }

  function showFieldErrors(fields) {
    let first = null;
    for (const f of fields) {
      const input = REPORT_FIELDS.includes(f.field) ? $(f.field) : null;
      if (!input) continue;
      input.setAttribute('aria-invalid', 'true');
      const note = $(f.field + '-error');
      note.textContent = FIELD_MESSAGES[f.field] || f.message;
      show(note, true);
      first = first || input;
    }
    if (first) first.focus();
    return Boolean(first);
  }

  function formError(text) {
    $('form-error').textContent = text;
    show($('form-error'), true);
  }

  async function submitReport(event) {
    event.preventDefault();
    clearFieldErrors();
    const body = {};
    for (const name of REPORT_FIELDS) {
      const value = $(name).value.trim();
      if (value) body[name] = value;
    }
    const button = $('report-submit');
    button.disabled = true;
    try {
      const res = await post('/report', body);
      const data = await res.json().catch(() => null);
      if (res.ok) return accept(data);
      const error = (data && data.error) || {};
      const fields = (error.details && error.details.fields) || [];
      if (!(res.status === 400 && showFieldErrors(fields))) formError(requestFailed(res.status, error.code));
    } catch {
      formError('ارسال نشد؛ اتصال اینترنت را بررسی کنید و دوباره تلاش کنید.');
    } finally {
      button.disabled = false;
    }
  }

  let disarmTimer = 0;
  function armCancel(button, armed) {
    clearTimeout(disarmTimer);
    button.classList.toggle('armed', armed);
    button.textContent = armed ? 'برای لغو پرداخت دوباره بزنید' : 'انصراف از پرداخت';
    if (armed) disarmTimer = setTimeout(() => armCancel(button, false), 5000);
  }

  async function cancelPayment(button) {
    if (!button.classList.contains('armed')) return armCancel(button, true);
    armCancel(button, false);
    button.disabled = true;
    try {
      const res = await post('/cancel');
      const data = await res.json().catch(() => null);
      if (res.ok) accept(data);
      else setStatus(requestFailed(res.status, data && data.error && data.error.code), 'bad');
    } catch {
      setStatus('ارسال نشد؛ اتصال اینترنت را بررسی کنید و دوباره تلاش کنید.', 'bad');
    } finally {
      button.disabled = false;
    }
  }

  // Plain ASCII digits: what a bank app's amount and card fields accept when pasted.
  $('copy-card').addEventListener('click', (e) =>
    copyText(e.currentTarget, view && view.card ? view.card.cardNumber : '', $('card-number'), 'کپی شماره کارت'));
  $('copy-amount').addEventListener('click', (e) =>
    copyText(e.currentTarget, view ? view.amountFinal : '', $('amount-rial'), 'کپی مبلغ'));
  $('report-form').addEventListener('submit', submitReport);
  $('cancel-btn').addEventListener('click', (e) => cancelPayment(e.currentTarget));
  setInterval(tick, 1000);

  accept(JSON.parse($('initial-data').textContent));
  listen();
})();
