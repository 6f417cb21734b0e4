// Hosted payment-link page: reads the payer's amount in the link's unit (Persian digits welcome), shows it in the other,
// creates the payment and sends the browser to its checkout page.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const link = JSON.parse($('initial-data').textContent);
  const FA = '۰۱۲۳۴۵۶۷۸۹';
  const faDigits = (s) => String(s).replace(/[0-9]/g, (d) => FA[d]);
  const group3 = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '٬');
  const tomans = (s) => {
    const whole = s.length > 1 ? s.slice(0, -1) : '0';
    const tenth = s.slice(-1);
    return faDigits(group3(whole)) + (tenth === '0' ? '' : '٫' + faDigits(tenth));
  };
  // Persian and Arabic-Indic digits to ASCII; separators and spaces a payer may type are dropped.
  const latin = (s) => String(s)
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\s,٬،_.]/g, '');
  const min = BigInt(link.minAmount || '10000');
  const max = BigInt(link.maxAmount || '1000000000');
  const amountInput = $('amount');
  // The payer types in the link's unit: toman (IRT, ten rials each) or rials; bounds are rials.
  const toman = link.currency === 'IRT';
  const perUnit = toman ? 10n : 1n;

  function show(el, visible) {
    el.hidden = !visible;
  }

  function fieldError(name, text) {
    const input = $(name);
    const note = $(name + '-error');
    if (!input || !note) return false;
    input.setAttribute('aria-invalid', 'true');
    note.textContent = text;
    show(note, true);
    input.focus();
    return true;
  }

  function clearErrors() {
    for (const name of ['amount', 'payerPhone']) {
      if (!$(name)) continue;
      $(name).removeAttribute('aria-invalid');
      show($(name + '-error'), false);
    }
    show($('form-error'), false);
  }

  function readAmount() {
    const digits = latin(amountInput.value);
    return /^[0-9]{1,18}$/.test(digits) ? digits.replace(/^0+(?=\d)/, '') : null;
  }

  const RANGE = toman
    ? 'مبلغ باید بین ' + tomans(String(min)) + ' و ' + tomans(String(max)) + ' تومان باشد.'
    : 'مبلغ باید بین ' + faDigits(group3(String(min))) + ' و ' + faDigits(group3(String(max))) + ' ریال باشد.';

  if (amountInput) {
    amountInput.addEventListener('input', () => {
      clearErrors();
      const digits = readAmount();
      if (toman) $('amount-rial').textContent = digits ? faDigits(group3(String(BigInt(digits) * 10n))) : '۰';
      else $('amount-toman').textContent = digits ? tomans(digits) : '۰';
    });
  }

  function failed(status, error) {
    const fields = (error.details && error.details.fields) || [];
    if (status === 400) {
      for (const f of fields) {
        if (f.field === 'amount' && fieldError('amount', RANGE)) return;
        if (f.field === 'payerPhone' && fieldError('payerPhone', 'شماره موبایل باید بین ۱۰ تا ۲۰ رقم باشد.')) return;
      }
    }
    const text = status === 404 ? 'این پیوند پرداخت دیگر فعال نیست.'
      : status === 429 ? 'درخواست‌ها زیاد است؛ چند لحظه بعد دوباره تلاش کنید.'
      : status === 503 ? 'در حال حاضر امکان پرداخت نیست؛ کمی بعد دوباره تلاش کنید.'
      : 'درخواست انجام نشد؛ دوباره تلاش کنید.';
    $('form-error').textContent = text;
    show($('form-error'), true);
  }

  $('link-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const body = {};
    if (amountInput) {
      const digits = readAmount();
      const rials = digits ? BigInt(digits) * perUnit : null;
      if (rials === null || rials < min || rials > max) return fieldError('amount', RANGE);
      body.amount = digits;
      if (toman) body.currency = 'IRT';
    }
    const phone = latin($('payerPhone').value);
    if (phone) body.payerPhone = phone;
    const button = $('pay-submit');
    button.disabled = true;
    try {
      const res = await fetch('/v1/links/' + encodeURIComponent(link.slug) + '/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      const data = await res.json().catch(() => null);
      if (res.status === 201 && data && data.token) {
        location.assign('/pay/' + encodeURIComponent(data.token));
        return;
      }
      failed(res.status, (data && data.error) || {});
    } catch {
      failed(0, {});
    }
    button.disabled = false;
  });
})();
