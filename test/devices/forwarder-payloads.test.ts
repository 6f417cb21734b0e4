import { describe, expect, it } from 'vitest';
import { instantOf, normaliseForwarderBody, stripSmsForwarderTemplate } from '../../src/domain/devices/forwarder-payloads.js';

// Pure decisions of the shape detection; the HTTP path of each app is in forwarders.test.ts.
describe('forwarder payloads', () => {
  it('reads epochs in ms or seconds (numbers or digits) and date-times only with an offset', () => {
    expect(instantOf(1795499100000)).toBe('2026-11-24T05:45:00.000Z');
    expect(instantOf('1795499100')).toBe('2026-11-24T05:45:00.000Z');
    expect(instantOf('2026-11-24T09:25:00.000+03:30')).toBe('2026-11-24T05:55:00.000Z');
    expect(instantOf('2026-11-24 09:25:00+0330')).toBe('2026-11-24T05:55:00.000Z');
    expect(instantOf('2026-11-24 09:25:00')).toBeUndefined();
    expect(instantOf('yesterday')).toBeUndefined();
    expect(instantOf(42)).toBeUndefined();
    // Past what a date-time can name: no instant, and no RangeError.
    for (const beyond of [8.64e15 + 1, 1e300, -1e300, Infinity, '1e300', '9999-12-31T23:59:59.999-23:59']) expect(instantOf(beyond)).toBeUndefined();
  });

  it('cuts SmsForwarder’s default layout back to the SMS, and leaves any other text alone', () => {
    const sms = 'line one\nline two';
    expect(stripSmsForwarderTemplate('+98700701', `+98700701\n${sms}\nSIM1_MCI\nSubId：1\n2026-11-24 09:15:00\nShop phone`)).toBe(sms);
    expect(stripSmsForwarderTemplate('+98700701', `+98700701\n${sms}\nSIM1\nSubId：2\n2026-11-24 09:15:00`)).toBe(sms);
    expect(stripSmsForwarderTemplate('+98700701', sms)).toBe(sms);
    expect(stripSmsForwarderTemplate('+98700701', `+98700701\n${sms}`)).toBe(`+98700701\n${sms}`);
  });

  it('tells the apps apart and passes our own shape (or an unknown one) through untouched', () => {
    const now = new Date('2026-11-24T06:00:00.000Z');
    const own = { sender: 'x', body: 'y', receivedAt: 'z' };
    expect(normaliseForwarderBody(own, now)).toEqual({ kind: 'single', app: 'gateway', message: own });
    expect(normaliseForwarderBody({ foo: 1 }, now)).toMatchObject({ kind: 'single', app: 'gateway' });
    expect(normaliseForwarderBody({ from: 'a', text: 'b' }, now)).toEqual({
      kind: 'single',
      app: 'incoming-sms-gateway',
      message: { sender: 'a', body: 'b', receivedAt: now.toISOString() },
    });
    expect(normaliseForwarderBody({ from: 'a', content: 'c', org_content: 'b', timestamp: '1795499100000' }, now)).toMatchObject({
      app: 'sms-forwarder',
      message: { sender: 'a', body: 'b', receivedAt: '2026-11-24T05:45:00.000Z' },
    });
    expect(normaliseForwarderBody({ event: 'system:ping', payload: {} }, now)).toEqual({ kind: 'ping', app: 'sms-gateway-android' });
    expect(normaliseForwarderBody({ event: 'sms:delivered', payload: {} }, now)).toMatchObject({ kind: 'other_event', event: 'sms:delivered' });
  });
});
