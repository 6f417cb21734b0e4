import { useId, useState } from 'react';
import type { CombinedError } from '@urql/core';
import { BANKS } from '../generated/banks.js';
import { amountInput, latinDigits, parseAmount, type Unit } from '../format.js';
import { FieldProblem } from './common.js';

/**
 * A card's fields, named as the GraphQL input fields they fill (CreateCardInput / UpdateCardInput:
 * `name="cardNumber"`, …). Amounts are typed in the unit shown and sent in rials; the bank's SMS
 * line (`smsSender`) offers the lines that bank is known to text from.
 */
export type CardValues = {
  bankCode?: string;
  cardNumber?: string;
  holderName?: string;
  accountNumber?: string | null;
  sheba?: string | null;
  smsSender?: string | null;
  deviceId?: string | null;
  openingBalance?: string | null;
  dailyAmountCap?: string | null;
  dailyCountCap?: number | null;
  monthlyAmountCap?: string | null;
  monthlyCountCap?: number | null;
};

const AMOUNTS = ['openingBalance', 'dailyAmountCap', 'monthlyAmountCap'] as const;
const COUNTS = ['dailyCountCap', 'monthlyCountCap'] as const;

/** The form's values as the API's input; a string names what is wrong (a field's Persian words). */
export function readCard(form: FormData, unit: Unit, opts: { creating: boolean }): { input: CardValues; problems: Record<string, string> } {
  const text = (name: string) => latinDigits(String(form.get(name) ?? '')).trim();
  const input: CardValues = {};
  const problems: Record<string, string> = {};
  const digits = (name: 'cardNumber' | 'accountNumber', pattern: RegExp, message: string) => {
    const value = text(name).replace(/[\s-]/g, '');
    if (!value) return;
    if (!pattern.test(value)) problems[name] = message;
    else input[name] = value;
  };
  if (text('bankCode')) input.bankCode = text('bankCode');
  else if (opts.creating) problems.bankCode = 'بانک را انتخاب کنید.';
  digits('cardNumber', /^\d{16}$/, 'شمارهٔ کارت ۱۶ رقم است.');
  if (opts.creating && !input.cardNumber && !problems.cardNumber) problems.cardNumber = 'شمارهٔ کارت را بنویسید.';
  if (text('holderName')) input.holderName = text('holderName');
  else if (opts.creating) problems.holderName = 'نام دارندهٔ کارت را بنویسید.';
  digits('accountNumber', /^\d{5,20}$/, 'شمارهٔ حساب فقط رقم است.');
  if (!opts.creating && !text('accountNumber')) input.accountNumber = null;
  const sheba = text('sheba').replace(/\s/g, '').toUpperCase();
  if (sheba) {
    if (/^IR\d{24}$/.test(sheba)) input.sheba = sheba;
    else problems.sheba = 'شبا را کامل بنویسید: ۲۴ رقم پس از دو حرف کشور.';
  }
  if (text('smsSender')) input.smsSender = text('smsSender');
  else if (!opts.creating) input.smsSender = null;
  if (form.has('deviceId')) input.deviceId = text('deviceId') || null;
  for (const name of AMOUNTS) {
    const value = text(name);
    if (!value) {
      if (!opts.creating && name !== 'openingBalance') input[name] = null;
      continue;
    }
    const rials = parseAmount(value, unit);
    if (rials === null) problems[name] = 'مبلغ را با رقم بنویسید.';
    else input[name] = rials;
  }
  for (const name of COUNTS) {
    const value = text(name);
    if (!value) {
      if (!opts.creating) input[name] = null;
      continue;
    }
    if (!/^\d{1,6}$/.test(value)) problems[name] = 'تعداد را با رقم بنویسید.';
    else input[name] = Number(value);
  }
  return { input, problems };
}

function Problem({ name, problems, error }: { name: string; problems: Record<string, string>; error: CombinedError | undefined }) {
  return problems[name] ? (
    <p className="field-error" role="alert" data-field-error={name}>
      {problems[name]}
    </p>
  ) : (
    <FieldProblem error={error} name={name} />
  );
}

type Device = { id: string; name: string; revoked: boolean };

export function CardFields({
  initial,
  devices,
  unit,
  problems,
  error,
  creating,
}: {
  initial?: CardValues & { bankCode?: string };
  devices: readonly Device[];
  unit: Unit;
  problems: Record<string, string>;
  error: CombinedError | undefined;
  creating: boolean;
}) {
  const id = useId();
  const [bank, setBank] = useState(initial?.bankCode ?? '');
  const senders = BANKS.find((b) => b.code === bank)?.senders ?? [];
  const unitName = unit === 'toman' ? 'تومان' : 'ریال';
  const field = (name: string) => `${id}-${name}`;
  const amount = (name: (typeof AMOUNTS)[number], label: string, help?: string) => (
    <div className="field">
      <label htmlFor={field(name)}>
        {label} ({unitName})
      </label>
      <input id={field(name)} name={name} inputMode="numeric" dir="ltr" defaultValue={amountInput(initial?.[name] ?? null, unit)} aria-describedby={help ? `${field(name)}-help` : undefined} />
      {help && (
        <p className="muted small-help" id={`${field(name)}-help`}>
          {help}
        </p>
      )}
      <Problem name={name} problems={problems} error={error} />
    </div>
  );
  const count = (name: (typeof COUNTS)[number], label: string) => (
    <div className="field">
      <label htmlFor={field(name)}>{label}</label>
      <input id={field(name)} name={name} inputMode="numeric" dir="ltr" defaultValue={initial?.[name] ?? ''} />
      <Problem name={name} problems={problems} error={error} />
    </div>
  );
  return (
    <>
      <div className="grid-form card-fields">
        <div className="field">
          <label htmlFor={field('bankCode')}>بانک</label>
          <select id={field('bankCode')} name="bankCode" value={bank} onChange={(e) => setBank(e.target.value)} required={creating}>
            <option value="">انتخاب بانک</option>
            {BANKS.map((b) => (
              <option key={b.code} value={b.code}>
                {b.name}
              </option>
            ))}
          </select>
          <Problem name="bankCode" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('cardNumber')}>شمارهٔ کارت (۱۶ رقم)</label>
          <input id={field('cardNumber')} name="cardNumber" inputMode="numeric" dir="ltr" autoComplete="off" defaultValue={initial?.cardNumber ?? ''} required={creating} />
          <Problem name="cardNumber" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('holderName')}>نام دارندهٔ کارت</label>
          <input id={field('holderName')} name="holderName" defaultValue={initial?.holderName ?? ''} required={creating} maxLength={100} />
          <Problem name="holderName" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('accountNumber')}>شمارهٔ حساب</label>
          <input id={field('accountNumber')} name="accountNumber" inputMode="numeric" dir="ltr" defaultValue={initial?.accountNumber ?? ''} aria-describedby={`${field('accountNumber')}-help`} />
          <p className="muted small-help" id={`${field('accountNumber')}-help`}>
            اگر پیامک بانک شمارهٔ حساب را می‌نویسد (مثل ملت و ملی)، لازم است تا واریز به این کارت شناخته شود.
          </p>
          <Problem name="accountNumber" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('sheba')}>شبا (اختیاری)</label>
          <input id={field('sheba')} name="sheba" dir="ltr" defaultValue={initial?.sheba ?? ''} />
          <Problem name="sheba" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('smsSender')}>خط پیامک بانک (شماره‌ای که بانک از آن پیامک می‌دهد)</label>
          <input id={field('smsSender')} name="smsSender" dir="ltr" list={`${field('smsSender')}-known`} defaultValue={initial?.smsSender ?? ''} aria-describedby={`${field('smsSender')}-help`} />
          <datalist id={`${field('smsSender')}-known`}>
            {senders.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <p className="muted small-help" id={`${field('smsSender')}-help`}>
            {senders.length ? (
              <>
                خط‌های شناختهٔ این بانک:{' '}
                <bdi dir="ltr" translate="no">
                  {senders.join('، ')}
                </bdi>
              </>
            ) : (
              'خالی بگذارید تا خط‌های شناختهٔ بانک پذیرفته شود.'
            )}
          </p>
          <Problem name="smsSender" problems={problems} error={error} />
        </div>
        <div className="field">
          <label htmlFor={field('deviceId')}>گوشی‌ای که پیامک‌های این کارت را می‌گیرد</label>
          <select id={field('deviceId')} name="deviceId" defaultValue={initial?.deviceId ?? ''}>
            <option value="">بدون گوشی</option>
            {devices
              .filter((d) => !d.revoked)
              .map((d) => (
                <option key={d.id} value={d.id} translate="no">
                  {d.name}
                </option>
              ))}
          </select>
          <Problem name="deviceId" problems={problems} error={error} />
        </div>
        {creating && amount('openingBalance', 'موجودی فعلی کارت', 'همان که اپ بانک نشان می‌دهد؛ پیامک جعلی اول نمی‌تواند مرجع موجودی شود.')}
      </div>
      <fieldset className="caps">
        <legend>سقف‌ها (خالی: بدون سقف)</legend>
        <div className="grid-form">
          {amount('dailyAmountCap', 'سقف مبلغ روزانه')}
          {count('dailyCountCap', 'سقف تعداد روزانه')}
          {amount('monthlyAmountCap', 'سقف مبلغ ماهانه')}
          {count('monthlyCountCap', 'سقف تعداد ماهانه')}
        </div>
      </fieldset>
    </>
  );
}
