import { creditOf } from '../domain/merchants/merchants.js';
/**
 * What the CLI prints. With --json anywhere on the line, stdout carries exactly one JSON object for
 * every outcome (results, errors, usage errors, help); people-facing text and logs go to stderr.
 */
export const jsonMode = process.argv.includes('--json');

function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : v));
}

export function print(obj: unknown, human: string): void {
  process.stdout.write(`${jsonMode ? toJson(obj) : human}\n`);
}

export function printError(code: string, message: string, details: Record<string, unknown> = {}): void {
  if (jsonMode) process.stdout.write(`${toJson({ error: { code, message, details } })}\n`);
  process.stderr.write(`${code}: ${message}\n`);
}

type MerchantRow = { id: string; name: string; active: boolean; demo: boolean; creditBalance: bigint; creditStripes: { reserved: bigint }[]; createdAt: Date };
type ProjectRow = {
  id: string;
  merchantId: string;
  name: string;
  sandbox: boolean;
  active: boolean;
  suspendedAt: Date | null;
  feeBps: number;
  feeMin: bigint;
  feeMax: bigint;
  createdAt: Date;
};

export function merchantJson(m: MerchantRow) {
  return {
    merchantId: m.id,
    name: m.name,
    active: m.active,
    demo: m.demo,
    credit: creditOf(m),
    createdAt: m.createdAt,
  };
}

/** `active` is the merchant's own switch; `suspended` the operator's. A project takes payments only when active and not suspended. */
export function projectJson(p: ProjectRow) {
  return {
    projectId: p.id,
    merchantId: p.merchantId,
    name: p.name,
    sandbox: p.sandbox,
    active: p.active,
    suspended: p.suspendedAt !== null,
    suspendedAt: p.suspendedAt,
    fee: { bps: p.feeBps, min: p.feeMin, max: p.feeMax },
    createdAt: p.createdAt,
  };
}

export function merchantLine(m: MerchantRow): string {
  return `${m.id}  ${m.active ? 'active  ' : 'inactive'}  ${m.demo ? 'demo  ' : '      '}${m.name}  (available ${creditOf(m).available} rials)`;
}

export function projectLine(p: ProjectRow): string {
  const state = p.suspendedAt ? 'suspended' : p.active ? 'active   ' : 'inactive ';
  return `${p.id}  ${state}  ${p.sandbox ? 'sandbox' : 'live   '}  ${p.name}  (merchant ${p.merchantId})`;
}
