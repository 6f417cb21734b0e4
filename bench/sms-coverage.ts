/**
 * How many SMS fixtures the parsers read right, per bank: deposits read as deposits with the right
 * amount (the figure auto-confirmation stands on), non-deposits never read as deposits (the figure
 * money stands on), and fixtures matched field for field. `--verbose` lists every miss.
 *
 *   node --import tsx bench/sms-coverage.ts [--verbose]
 */
import { parseSms } from '../src/domain/sms/registry.js';
import { fixturesByBank } from '../test/sms/fixtures/index.js';
import { DEFAULT_RECEIVED_AT, type SmsFixture } from '../test/sms/fixtures/types.js';
import { expectedFor, toPlain } from '../test/sms/helpers.js';

type Row = { bank: string; fixtures: number; exact: number; deposits: number; depositsRead: number; others: number; othersSafe: number };

const verbose = process.argv.includes('--verbose');
const canonical = (o: object | null) => (o === null ? 'null' : JSON.stringify(o, Object.keys(o).sort()));
const misses: string[] = [];

function measure(bank: string, fixtures: SmsFixture[]): Row {
  const row: Row = { bank, fixtures: fixtures.length, exact: 0, deposits: 0, depositsRead: 0, others: 0, othersSafe: 0 };
  for (const f of fixtures) {
    const actual = toPlain(parseSms(f.sender, f.body, new Date(f.receivedAt ?? DEFAULT_RECEIVED_AT)).parsed);
    const exact = canonical(actual) === canonical(expectedFor(f.expected, actual));
    if (exact) row.exact++;
    else misses.push(`${bank} / ${f.name}: got ${JSON.stringify(actual)}`);
    if (f.expected?.direction === 'deposit') {
      row.deposits++;
      if (actual?.direction === 'deposit' && actual.amount === f.expected.amount) row.depositsRead++;
    } else {
      row.others++;
      if (actual?.direction !== 'deposit') row.othersSafe++;
    }
  }
  return row;
}

const rows = Object.entries(fixturesByBank).map(([bank, fixtures]) => measure(bank, fixtures));
const total = rows.reduce(
  (t, r) => ({ ...t, fixtures: t.fixtures + r.fixtures, exact: t.exact + r.exact, deposits: t.deposits + r.deposits, depositsRead: t.depositsRead + r.depositsRead, others: t.others + r.others, othersSafe: t.othersSafe + r.othersSafe }),
  { bank: 'TOTAL', fixtures: 0, exact: 0, deposits: 0, depositsRead: 0, others: 0, othersSafe: 0 },
);

const pct = (a: number, b: number) => (b === 0 ? '   -' : `${((100 * a) / b).toFixed(0).padStart(3)}%`);
const line = (r: Row) =>
  `${r.bank.padEnd(14)} ${String(r.fixtures).padStart(4)} ${`${r.exact}/${r.fixtures}`.padStart(8)} ` +
  `${`${r.depositsRead}/${r.deposits}`.padStart(9)} ${pct(r.depositsRead, r.deposits)}  ${`${r.othersSafe}/${r.others}`.padStart(9)} ${pct(r.othersSafe, r.others)}`;

console.log('bank           fixt.    exact  deposits read   non-deposits not read as deposit');
for (const r of rows) console.log(line(r));
console.log('-'.repeat(78));
console.log(line(total));
console.log(`\nbanks: ${rows.length}; deposits read with the right amount: ${total.depositsRead}/${total.deposits}; non-deposits read as deposits: ${total.others - total.othersSafe}`);

// The card rule (docs/decisions.md "Evidence before money"): a body that names no bank, from a sender no bank lists but
// that a card of its bank on the phone vouches for, is read by that bank's parser first.
const VOUCHED = '+989121234567';
const nameless = Object.entries(fixturesByBank).flatMap(([bank, fixtures]) => fixtures.filter((f) => f.senderOnly && f.expected).map((f) => ({ bank, f })));
const byCard = nameless.filter(({ bank, f }) => {
  const actual = toPlain(parseSms(VOUCHED, f.body, new Date(f.receivedAt ?? DEFAULT_RECEIVED_AT), [bank]).parsed);
  const exact = canonical(actual) === canonical(expectedFor(f.expected, actual));
  if (!exact) misses.push(`${bank} / ${f.name} (vouched sender): got ${JSON.stringify(actual)}`);
  return exact;
});
console.log(`bodies naming no bank, read exactly by the card's bank from a vouched sender: ${byCard.length}/${nameless.length}`);
if (verbose && misses.length > 0) console.log(`\nmisses:\n${misses.join('\n')}`);
