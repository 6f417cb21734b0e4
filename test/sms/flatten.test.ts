import { describe, expect, it } from 'vitest';
import { balanceOf } from '../../src/domain/sms/fields.js';
import { unflatten } from '../../src/domain/sms/flatten.js';
import { normalizeSmsBody } from '../../src/domain/sms/normalize.js';

const flat = (s: string) => unflatten(normalizeSmsBody(s));

describe('unflatten', () => {
  it('cuts a one-line body back into fields before each label, signed amount and date', () => {
    expect(flat('بانک ملی ایران انتقال:2,000,000+ حساب:24000 مانده:18,893,140 0715-14:02')).toBe(
      'بانک ملی ایران\nانتقال:2,000,000+\nحساب:24000\nمانده:18,893,140 0715-14:02',
    );
    expect(flat('777.888.20000275.1 +1,000,000,000 04/13_10:22 مانده: 12,000,000')).toBe(
      '777.888.20000275.1\n+1,000,000,000\n04/13_10:22\nمانده: 12,000,000',
    );
  });

  it('turns value-before-label pairs (visual order) back into label:value', () => {
    expect(flat('بانک ملی ایران 2,000,000+ :انتقال 24000 :حساب 18,893,140 :مانده 0715-14:02')).toBe(
      'بانک ملی ایران\nانتقال:2,000,000+\nحساب:24000\nمانده:18,893,140\n0715-14:02',
    );
  });

  it('splits lines joined with a bar', () => {
    expect(flat('واریز: +5,000,000 | مانده: 12,500,000 | 1404/07/15 14:02')).toBe('واریز: +5,000,000\nمانده: 12,500,000\n1404/07/15 14:02');
  });

  it('leaves multi-line bodies and short ones alone', () => {
    expect(flat('واریز:1\nمانده:2')).toBe('واریز:1\nمانده:2');
    expect(flat('سلام')).toBe('سلام');
  });

  it('cuts the lines of a body flattened only in part that hold two or more labelled fields', () => {
    expect(flat('بانک تجارت حساب: 0151000084019 واریز: 12,000,000 ریال از طريق: شتاب\nمانده:\n89,579,894 ریال 1404/07/15 13:30')).toBe(
      'بانک تجارت\nحساب: 0151000084019\nواریز: 12,000,000 ریال از طریق: شتاب\nمانده:\n89,579,894 ریال 1404/07/15 13:30',
    );
    expect(flat('بابت :انتقال از کارت 6219****3264 به کارت 6221****3057\n0404/07/15_14:02')).toBe(
      'بابت :انتقال از کارت 6219****3264 به کارت 6221****3057\n0404/07/15_14:02',
    );
  });

  it('puts a compact layout\'s leading account and Tejarat\'s نوع تراکنش on lines of their own', () => {
    expect(flat('300400086351 1,900,000+ 1404/7/15-14:18 مانده:30,724,805')).toBe('300400086351\n1,900,000+\n1404/7/15-14:18\nمانده:30,724,805');
    expect(flat('بانک تجارت کارت: 5859****461234 نوع تراکنش: انتقال به شتابی مبلغ: 1,500,000 ریال')).toBe(
      'بانک تجارت\nکارت: 5859****461234\nنوع تراکنش: انتقال به شتابی\nمبلغ: 1,500,000 ریال',
    );
  });

  it('keeps a card number with its preposition', () => {
    expect(flat('پست بانک واريز به کارت: 6156 +998,190 1404/07/15 9:47 مانده: 44,108,899 ريال')).toBe(
      'پست بانک واریز به کارت: 6156\n+998,190\n1404/07/15 9:47\nمانده: 44,108,899 ریال',
    );
  });
});

describe('balanceOf', () => {
  it.each([
    ['مانده21,250,000', 21_250_000n],
    ['مانده: 9,100,000', 9_100_000n],
    ['موجودی: 12,400,000 ریال', 12_400_000n],
    ['موجودی 5,000,000 تومان', 50_000_000n],
    ['مانده حساب 829-800-1092308-1 : 50,000,000 ریال', 50_000_000n],
    ['حساب\nمانده\n850,000', 850_000n],
    ['مانده:-1,000', -1_000n],
  ])('reads %j', (body, expected) => {
    expect(balanceOf(normalizeSmsBody(body))).toBe(expected);
  });

  it.each(['مانده بدهی 2,400,000,000 ریال', 'مانده وام: 10,000,000', 'مانده\n0715-14:02', 'واریز 1,000'])('finds none in %j', (body) => {
    expect(balanceOf(normalizeSmsBody(body))).toBeNull();
  });
});
