import { describe, expect, it } from 'vitest';
import { decideHealth } from '../../src/domain/devices/health-state.js';
import { capcomTelemetry, looseTelemetry, parseTelemetry } from '../../src/domain/devices/telemetry.js';
import { AppError } from '../../src/errors.js';

// Telemetry parsing and the health decision, without a database (src/domain/devices/telemetry.ts,
// health-state.ts); the HTTP side is test/devices/phone-health.test.ts.
const fieldOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return JSON.stringify((err as AppError).details);
  }
  throw new Error('not refused');
};

describe('telemetry', () => {
  it('our body: strict types and ranges, each refusal naming its field; empty is none', () => {
    expect(parseTelemetry({})).toEqual({});
    expect(parseTelemetry(undefined)).toEqual({});
    expect(parseTelemetry({ battery: 99.6, charging: true, network: 'mobile', appVersion: ' 1.0 ' })).toEqual({ battery: 100, charging: true, network: 'mobile', appVersion: '1.0' });
    expect(parseTelemetry({ battery: null })).toEqual({});
    expect(fieldOf(() => parseTelemetry({ battery: 101 }))).toContain('battery');
    expect(fieldOf(() => parseTelemetry({ battery: '50' }))).toContain('battery');
    expect(fieldOf(() => parseTelemetry({ network: 'lte' }))).toContain('network');
    expect(fieldOf(() => parseTelemetry({ appVersion: 'x'.repeat(65) }))).toContain('appVersion');
  });

  it('an app’s template: text read leniently, text it cannot read left out, a number out of range refused', () => {
    expect(looseTelemetry({ battery: '85%', charging: 'Discharging', network: 'WIFI', appVersion: '3.3.0' })).toEqual({ battery: 85, charging: false, network: 'wifi', appVersion: '3.3.0' });
    expect(looseTelemetry({ battery: 'full', charging: '充电中', network: '?' })).toEqual({});
    expect(looseTelemetry({ charging: 'USB', network: '4G' })).toEqual({ charging: true, network: 'mobile' });
    expect(fieldOf(() => looseTelemetry({ battery: '140%' }))).toContain('battery');
    expect(capcomTelemetry({ health: { checks: { 'battery:level': { observedValue: 30 }, 'battery:charging': { observedValue: 0 } } } })).toEqual({ battery: 30, charging: 0 });
    expect(looseTelemetry(capcomTelemetry({ health: { checks: { 'battery:charging': { observedValue: 0 } } } }))).toEqual({ charging: false });
  });
});

describe('health', () => {
  const base = { online: true, battery: 80, charging: false, silent: false };
  it('offline before silent before low battery', () => {
    expect(decideHealth(base)).toBe('ok');
    expect(decideHealth({ ...base, battery: 15 })).toBe('low_battery');
    expect(decideHealth({ ...base, battery: 16 })).toBe('ok');
    expect(decideHealth({ ...base, battery: 5, charging: true })).toBe('ok');
    expect(decideHealth({ ...base, battery: 5, charging: null })).toBe('low_battery');
    expect(decideHealth({ ...base, battery: 5, silent: true })).toBe('silent');
    expect(decideHealth({ ...base, battery: 5, silent: true, online: false })).toBe('offline');
    expect(decideHealth({ ...base, battery: null })).toBe('ok');
  });
});
