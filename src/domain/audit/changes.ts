/**
 * What an audit event says changed: `{field: {from, to}}`, JSON-safe (bigints as digit strings,
 * dates as RFC 3339). The log is read by every key of the merchant and kept forever, so it never
 * holds a secret, a hash, a token or a whole card or account number: secrets are left out (the
 * action says one was issued or replaced), bank numbers are cut to their last 4 digits.
 */
export type AuditValue = string | number | boolean | null | AuditValue[];
export type Changes = Record<string, { from: AuditValue; to: AuditValue }>;

// A prefix (`sk_test_Ab12`) is shown to tell keys apart; the rest of a credential never is.
const SECRET_FIELD = /hash|ciphertext|password|secret|token|key/i;
const PREFIX_FIELD = /prefix$/i;
const BANK_NUMBER_FIELD = /cardnumber|accountnumber|sheba|iban|destinationcard/i;

export function isSecretField(field: string): boolean {
  return SECRET_FIELD.test(field) && !PREFIX_FIELD.test(field);
}

/** `****5678`: enough to tell cards apart, too little to use one. */
export function maskToLast4(value: string): string {
  const digits = value.replace(/[^0-9A-Za-z]/g, '');
  return `****${digits.slice(-4)}`;
}

/** One field's value as the log stores it; undefined for a field it must not hold. */
export function auditValue(field: string, value: unknown): AuditValue | undefined {
  if (isSecretField(field)) return undefined;
  if (value === null || value === undefined) return null;
  if (BANK_NUMBER_FIELD.test(field)) return maskToLast4(String(value));
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => auditValue(field, v) ?? null);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

const same = (a: AuditValue, b: AuditValue) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields an update touched (the keys of its input) whose value differs between the row before
 * and the row after; null when none did, so a call that changes nothing records nothing.
 */
export function changesOf(before: object, after: object, fields: readonly string[]): Changes | null {
  const out: Changes = {};
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  for (const field of fields) {
    const from = auditValue(field, b[field]);
    const to = auditValue(field, a[field]);
    if (from === undefined || to === undefined || same(from, to)) continue;
    out[field] = { from, to };
  }
  return Object.keys(out).length ? out : null;
}

/** A created row's fields that are set, each `{from: null, to}`. */
export function createdValues(row: object, fields: readonly string[]): Changes | null {
  return changesOf({}, row, fields);
}
