import { describe, expect, it } from 'vitest';
import { amountInput, faNumber, formatAmount, latinDigits, parseAmount } from '../../dashboard/src/format.js';
import { dayRange, isoJalali, jalaliToday, parseJalali } from '../../dashboard/src/jalali.js';

describe('dashboard amounts', () => {
  it('shows rials as toman, keeping a tenth when the rials are not a multiple of ten', () => {
    expect(formatAmount('1500080', 'toman')).toBe('۱۵۰٬۰۰۸ تومان');
    expect(formatAmount('12345', 'toman')).toBe('۱٬۲۳۴٫۵ تومان');
    expect(formatAmount('1500080', 'rial')).toBe('۱٬۵۰۰٬۰۸۰ ریال');
    expect(formatAmount('-25000', 'toman')).toBe('−۲٬۵۰۰ تومان');
  });

  it('reads typed amounts in the chosen unit, Persian digits and separators included', () => {
    expect(parseAmount('۱۵۰٬۰۰۰', 'toman')).toBe('1500000');
    expect(parseAmount('2,500', 'rial')).toBe('2500');
    expect(parseAmount('دو هزار', 'rial')).toBeNull();
    expect(latinDigits('۰۹١٢')).toBe('0912');
    expect(faNumber('1000000000')).toBe('۱٬۰۰۰٬۰۰۰٬۰۰۰');
  });

  it('reads a toman tenth as formatAmount shows it, and writes rials back into an input in the unit shown', () => {
    expect(parseAmount('۱٬۲۳۴٫۵', 'toman')).toBe('12345');
    expect(parseAmount('1234.5', 'toman')).toBe('12345');
    expect(parseAmount('1.500', 'toman')).toBeNull();
    expect(parseAmount('12345.5', 'rial')).toBeNull();
    expect(amountInput('187000', 'toman')).toBe('۱۸۷۰۰');
    expect(amountInput('12345', 'toman')).toBe('۱۲۳۴٫۵');
    expect(amountInput('187000', 'rial')).toBe('۱۸۷۰۰۰');
    expect(parseAmount(amountInput('12345', 'toman'), 'toman')).toBe('12345');
    expect(amountInput(null, 'toman')).toBe('');
  });
});

describe('dashboard Jalali dates in Tehran time', () => {
  it('takes a Jalali day as Tehran midnight to midnight in UTC', () => {
    expect(dayRange(parseJalali('۱۴۰۵/۰۹/۰۴')!)).toEqual({ from: '2026-11-24T20:30:00.000Z', to: '2026-11-25T20:29:59.999Z' });
    expect(parseJalali('1405-12-31')).toBeNull();
  });

  it('turns the day at Tehran midnight, not UTC midnight', () => {
    expect(isoJalali(jalaliToday(new Date('2026-11-25T20:29:00Z')))).toBe('1405-09-04');
    expect(isoJalali(jalaliToday(new Date('2026-11-25T20:30:00Z')))).toBe('1405-09-05');
  });

  it('reads Tehran’s offsets from the time-zone data, not a fixed +03:30: a DST year’s day was 23 hours', () => {
    // 2 Farvardin 1401: clocks went from 24:00 to 01:00 (+04:30 until 30 Shahrivar 1401).
    expect(dayRange(parseJalali('1401/01/02')!)).toEqual({ from: '2022-03-21T20:30:00.000Z', to: '2022-03-22T19:29:59.999Z' });
    expect(isoJalali(jalaliToday(new Date('2022-07-01T19:29:00Z')))).toBe('1401-04-10');
    expect(isoJalali(jalaliToday(new Date('2022-07-01T19:30:00Z')))).toBe('1401-04-11');
  });
});

describe('project section titles', () => {
  it('name each project’s section once per page, telling apart two projects that share a name', async () => {
    const { projectTitles } = await import('../../dashboard/src/projects.js');
    const titles = projectTitles([
      { id: '11111111-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'فروشگاه', sandbox: false },
      { id: '22222222-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'فروشگاه', sandbox: false },
      { id: '33333333-cccc-4ccc-8ccc-cccccccccccc', name: 'فروشگاه', sandbox: true },
    ]);
    expect([...titles.values()]).toEqual(['فروشگاه — 11111111', 'فروشگاه — 22222222', 'فروشگاه (آزمایشی)']);
  });
});

describe('dashboard words for dates, durations and the API’s refusals', () => {
  it('writes a date as «۱۴۰۵/۰۹/۰۸ ساعت ۰۱:۱۹» (Tehran time, no Latin comma)', async () => {
    const { formatDateTime } = await import('../../dashboard/src/format.js');
    expect(formatDateTime('2026-11-28T21:49:00Z')).toBe('۱۴۰۵/۰۹/۰۸ ساعت ۰۱:۱۹');
    expect(formatDateTime('2026-11-28T21:49:00Z')).not.toMatch(/[,،A-Za-z]/);
  });

  it('writes durations in seconds as they are: a 5-second limit is not «۰ دقیقه»', async () => {
    const { formatDuration } = await import('../../dashboard/src/format.js');
    expect(formatDuration(5)).toBe('۵ ثانیه');
    expect(formatDuration(900)).toBe('۱۵ دقیقه');
    expect(formatDuration(90)).toBe('۱ دقیقه و ۳۰ ثانیه');
    expect(formatDuration(7200)).toBe('۲ ساعت');
    expect(formatDuration(0)).toBe('۰ ثانیه');
  });

  it('translates an invalid_request from the field names in its details, never showing the English message', async () => {
    const { errorText, fieldErrors } = await import('../../dashboard/src/errors.js');
    const refusal = {
      graphQLErrors: [
        {
          message: 'destinationCard: must be 16 digits',
          extensions: { code: 'invalid_request', details: { fields: [{ field: 'input.destinationCard', message: 'must be 16 digits' }] } },
        },
      ],
    } as never;
    expect(errorText(refusal)).toBe('«کارت مقصد»: باید ۱۶ رقم باشد.');
    expect(fieldErrors(refusal)).toEqual({ destinationCard: 'باید ۱۶ رقم باشد.' });
    const unknown = { graphQLErrors: [{ message: 'Something new happened.', extensions: { code: 'brand_new_code' } }] } as never;
    expect(errorText(unknown)).toBe('درخواست پذیرفته نشد.');
    const credit = { graphQLErrors: [{ message: "The merchant's credit is used up.", extensions: { code: 'merchant_credit_exhausted' } }] } as never;
    expect(errorText(credit)).not.toMatch(/[A-Za-z]/);
  });
});

describe('dashboard live and test addresses', () => {
  it('mirrors every page under /dashboard/test, and keeps the sign-in pages out of the mirror', async () => {
    const { inMode, splitMode } = await import('../../dashboard/src/mode.js');
    expect(inMode('/dashboard/payments?status=pending', 'test')).toBe('/dashboard/test/payments?status=pending');
    expect(inMode('/dashboard/test/payments', 'live')).toBe('/dashboard/payments');
    expect(inMode('/dashboard', 'test')).toBe('/dashboard/test');
    expect(inMode('/dashboard/test', 'live')).toBe('/dashboard');
    expect(inMode('/dashboard/test/cards/new', 'test')).toBe('/dashboard/test/cards/new');
    expect(inMode('/dashboard/login?next=%2Fdashboard%2Ftest', 'test')).toBe('/dashboard/login?next=%2Fdashboard%2Ftest');
    expect(inMode('https://example.com/x', 'test')).toBe('https://example.com/x');
    expect(splitMode('/test/payments/')).toEqual({ mode: 'test', path: '/payments' });
    expect(splitMode('/testing')).toEqual({ mode: 'live', path: '/testing' });
    expect(splitMode('')).toEqual({ mode: 'live', path: '/' });
  });
});
