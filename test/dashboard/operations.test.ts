import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkOperations } from '../../dashboard/scripts/check-operations.js';

const schema = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

/** The schema with one field of one type taken out, as a careless server change would. */
function without(type: string, field: string): string {
  const block = new RegExp(`(type ${type} [^{]*\\{[\\s\\S]*?)\\n(\\s*"""[^"]*"""\\s*)?\\s*${field}(\\([^)]*\\))?: [^\\n]+`);
  const changed = schema.replace(block, '$1');
  expect(changed).not.toBe(schema);
  return changed;
}

describe('the dashboard operations against schema.graphql', () => {
  it('fit the printed schema and the server’s query limits', () => {
    const report = checkOperations(schema);
    expect(report.problems).toEqual([]);
    expect(report.operations).toBeGreaterThan(30);
  });

  it('fail the check when the schema drops a field a page reads', () => {
    const report = checkOperations(without('Payment', 'orderId'));
    expect(report.problems.some((p) => p.includes('DashboardPayments') && p.includes('Cannot query field "orderId" on type "Payment"'))).toBe(true);
  });
});
