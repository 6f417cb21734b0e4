import { describe, expect, it } from 'vitest';
import { parseSms, smsParsers } from '../../src/domain/sms/registry.js';
import { claimsSender } from '../../src/domain/sms/sender-match.js';
import { banksOfSender, isKnownSender, knownSenders, sameSender } from '../../src/domain/sms/senders.js';

describe('sameSender', () => {
  it.each([
    ['+98700717', '98700717'],
    ['+98700717', '700717'],
    ['0098700717', '700717'],
    ['+989830009417', '09830009417'],
    ['+989121234567', '09121234567'],
    ['BankMellat', ' BankMellat\t'],
    ['Refah Bank', 'Refah Bank\n'],
  ])('%s = %s', (a, b) => {
    expect(sameSender(a, b)).toBe(true);
  });

  it.each([
    ['+98700717', '+98700719'],
    ['700717', '70071'],
    ['700717', '7007170'],
    ['BankMellat', 'BankMelli'],
    ['+989830009417', '30009417'],
    ['+98700717', '+98 700 717'],
    ['700717', '۷۰۰۷۱۷'],
    ['BankMellat', 'bankmellat'],
    ['BankMellat', 'Bank Mellat'],
    ['B.Pasargad', 'b pasargad'],
    ['Refah Bank', 'REFAHBANK'],
    ['BankMellat', '\uFEFFBankMellat'],
    ['BankMellat', 'BankMellat\u2028'],
    ['BankMellat', '\u1680BankMellat'],
    ['BankMellat', 'Bank\u200DMellat'],
    ['BankMellat', 'Bank\tMellat'],
    ['', ''],
  ])('%s ≠ %s', (a, b) => {
    expect(sameSender(a, b)).toBe(false);
  });
});

describe('isKnownSender', () => {
  it('accepts every listed sender of a bank in every form a forwarder writes it', () => {
    expect(isKnownSender('melli', '+98700717')).toBe(true);
    expect(isKnownSender('melli', '98700717')).toBe(true);
    expect(isKnownSender('melli', '700717')).toBe(true);
    expect(isKnownSender('mellat', 'BankMellat')).toBe(true);
    expect(isKnownSender('saderat', '98700719')).toBe(true);
    expect(isKnownSender('khavarmianeh', '+9820004861')).toBe(true);
  });

  it('refuses another bank\'s sender, a mobile number and a look-alike name', () => {
    expect(isKnownSender('melli', '+98700719')).toBe(false);
    expect(isKnownSender('saderat', '+98700717')).toBe(false);
    expect(isKnownSender('mellat', '+989121234567')).toBe(false);
    expect(isKnownSender('mellat', 'BankMellat2')).toBe(false);
    expect(isKnownSender('nosuchbank', '700717')).toBe(false);
    expect(isKnownSender('melli', '')).toBe(false);
  });

  it('knows the senders real Parsian, Maskan and Mehr Iran SMS come from, in every form a forwarder writes them', () => {
    // Read off real phones (doxigo/muchToman Sms.kt, Bank enum) and quoted in public parser tests.
    expect(isKnownSender('parsian', 'PARSIANBANK')).toBe(true);
    expect(isKnownSender('parsian', '+98300054')).toBe(true);
    expect(isKnownSender('parsian', '300055')).toBe(true);
    expect(isKnownSender('parsian', '9850001099')).toBe(true);
    expect(isKnownSender('maskan', 'Bank Maskan')).toBe(true);
    expect(isKnownSender('maskan', 'BANKMASKAN')).toBe(false);
    expect(isKnownSender('mehriran', 'B.QMEHRIRAN')).toBe(true);
    expect(isKnownSender('mehriran', '09810008528')).toBe(true);
    expect(isKnownSender('mehriran', '+989810008529')).toBe(false);
    expect(isKnownSender('maskan', 'B.QMEHRIRAN')).toBe(false);
  });

  it('accepts a sender the merchant added for the card', () => {
    expect(isKnownSender('tejarat', '+98300089', ['300089'])).toBe(true);
    expect(isKnownSender('tejarat', '+98 300 089', ['300089'])).toBe(false);
    expect(isKnownSender('tejarat', '+989121234567', ['09121234567'])).toBe(true);
  });

  it('lists senders for every bank with a parser', () => {
    for (const p of smsParsers.filter((x) => x.bankCode !== 'unknown')) expect(knownSenders(p.bankCode).length).toBeGreaterThan(0);
  });
});

describe('bank detection', () => {
  it('routes a listed sender id to its bank even when the body names none', () => {
    const body = 'پايا: 1,479,680+ حساب: 27007 مانده: 32,203,090 0503 - 13:04';
    expect(parseSms('98700719', body, new Date('2025-07-25T10:00:00Z')).parsed?.bankCode).toBe('saderat');
  });

  it('routes a name-shaped sender to its bank', () => {
    const mellat = smsParsers.find((p) => p.bankCode === 'mellat');
    expect(mellat && claimsSender(mellat, 'Bank Mellat')).toBe(true);
    expect(mellat && claimsSender(mellat, '+989121234567')).toBe(false);
  });

  it('reads a body naming two banks as the bank named first', () => {
    const body = 'بانک آینده\nواریز:1,000,000\nبابت انتقال از بانک رفاه\nمانده:3,000,000\n1404/07/15 14:02';
    expect(parseSms('+989121234567', body, new Date('2025-10-07T12:00:00Z')).parsed?.bankCode).toBe('ayandeh');
  });
});

describe('banksOfSender', () => {
  const cards = [
    { bankCode: 'maskan', smsSender: null },
    { bankCode: 'mellat', smsSender: '+98300012345' },
    { bankCode: 'maskan', smsSender: null },
    { bankCode: 'parsian' },
  ];

  it('given a known sender of a card\'s bank, names that bank once', () => {
    expect(banksOfSender(cards, 'Bank Maskan')).toEqual(['maskan']);
    expect(banksOfSender(cards, '+98300054')).toEqual(['parsian']);
  });

  it('given the sender a merchant vouched for on a card, names that card\'s bank', () => {
    expect(banksOfSender(cards, '0300012345')).toEqual(['mellat']);
  });

  it('given a sender no card\'s bank knows, or a known sender of a bank with no card on the phone, names none', () => {
    expect(banksOfSender(cards, '+989121234567')).toEqual([]);
    expect(banksOfSender(cards, 'B.QMEHRIRAN')).toEqual([]);
    expect(banksOfSender([], 'Bank Maskan')).toEqual([]);
  });
});
