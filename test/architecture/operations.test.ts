import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/operations/operation.js';

// docs/architecture.md "Operations: one file per decision": every decision of the merchant (and
// the payer's cancel, the sandbox's simulation) is one file in src/operations, run by the one
// runner, src/operations/run.ts. The runner alone opens a decision's transaction, claims its key and
// writes its audit events; a door only calls it. These checks read the source, so a second path to
// a decision (a door that locks and transitions a payment itself, a domain function that opens its
// own decision transaction) fails here before review.

const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('src/generated/'));
}

const files = [...sources('src'), ...sources('jobs')];

/** A file's code without its comments. */
function codeOf(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** The names a file imports from each file (relative imports only): `import { a, b as c, type D } from './x.js'`. */
function namedImports(file: string): { from: string; names: string[] }[] {
  const out: { from: string; names: string[] }[] = [];
  for (const m of codeOf(file).matchAll(/^\s*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/gm)) {
    const from = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), m[2]!)).replace(/\.js$/, '.ts');
    const names = m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
    out.push({ from, names });
  }
  return out;
}

const isDoor = (f: string) => /^src\/(rest|graphql|http|cli)\//.test(f) || f.startsWith('jobs/') || f === 'src/runtime.ts' || f === 'src/main.ts';
const inOperations = (f: string) => f.startsWith('src/operations/');
const RUNNER = 'src/operations/run.ts';

/** Each call of `fn(` (or `fn<T>(`) in a file's code, as `file: fn`. */
function callsOf(fn: string, among: string[]): string[] {
  const call = new RegExp(`(?<![.\\w])${fn}\\s*(?:<[^()]*?>)?\\s*\\(`);
  return among.filter((f) => call.test(codeOf(f).replace(new RegExp(`function\\s+${fn}\\b`, 'g'), ''))).map((f) => `${f}: ${fn}`);
}

/** What only the runner and the domain beneath it touch: a door reaching one of these decides by itself. */
const DECISION_MACHINERY: Record<string, string[] | '*'> = {
  'src/db/prisma.ts': ['decisionTransaction'],
  'src/domain/payments/transitions.ts': '*',
  'src/domain/payments/events.ts': ['recordEvent'],
  'src/domain/payments/idempotency.ts': ['underKey', 'claimIdempotencyKey', 'storeIdempotentAnswer'],
  'src/domain/audit/audit.ts': ['recordAudit', 'recordUpdate', 'writeAudited'],
};

describe('decisions go through src/operations', () => {
  it('a door (REST, GraphQL, HTTP pages, CLI, jobs) never reaches a decision’s transaction, locks, transitions, events, keys or audit itself', () => {
    const doors = files.filter(isDoor);
    expect(doors.length).toBeGreaterThan(30);
    const reaching = doors.flatMap((f) =>
      namedImports(f).flatMap(({ from, names }) => {
        const forbidden = DECISION_MACHINERY[from];
        if (!forbidden) return [];
        return names.filter((n) => forbidden === '*' || forbidden.includes(n)).map((n) => `${f} imports ${n} from ${from}`);
      }),
    );
    expect(reaching).toEqual([]);
  });

  it('only the runner opens a merchant decision’s transaction: `decide` is gone, `decisionTransaction` is the runner’s and the engine’s own sweeps’', () => {
    // The engine's expiry (a system decision, no merchant, no key, no audit) keeps its own.
    const ENGINE = ['src/domain/payments/expiry.ts'];
    expect(callsOf('decisionTransaction', [RUNNER])).toHaveLength(1);
    expect(callsOf('decisionTransaction', files.filter((f) => f !== RUNNER && f !== 'src/db/prisma.ts' && !ENGINE.includes(f)))).toEqual([]);
    expect(callsOf('decide', files)).toEqual([]);
  });

  it('a payment transitions only in an operation, or by the engine itself (matching, expiry)', () => {
    const ENGINE = ['src/domain/matching/match-deposit.ts', 'src/domain/payments/expiry.ts', 'src/domain/payments/transitions.ts'];
    expect(callsOf('applyTransition', files.filter(inOperations)).length).toBeGreaterThanOrEqual(4);
    expect(callsOf('applyTransition', files.filter((f) => !inOperations(f) && !ENGINE.includes(f)))).toEqual([]);
  });

  it('an operation leaves the transaction, the key and the audit write to the runner', () => {
    const operations = files.filter((f) => inOperations(f) && f !== RUNNER);
    const owned = ['decisionTransaction', 'underKey', 'claimIdempotencyKey', 'recordAudit', 'parseInput', 'requireDecider'];
    expect(owned.flatMap((fn) => callsOf(fn, operations))).toEqual([]);
  });

  it('the domain never imports a door, an operation, a flow or a presenter', () => {
    const domain = files.filter((f) => f.startsWith('src/domain/'));
    const upward = domain.flatMap((f) =>
      namedImports(f)
        .map(({ from }) => from)
        .filter((t) => /^src\/(rest|graphql|http|cli|operations|flows|presenters)\//.test(t) || t.startsWith('jobs/') || t === 'src/runtime.ts' || t === 'src/main.ts')
        .map((t) => `${f} → ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it('payments do not import bank messages or matching: what a confirmation needs of them, its operation calls', () => {
    const payments = files.filter((f) => f.startsWith('src/domain/payments/'));
    const crossing = payments.flatMap((f) => namedImports(f).filter(({ from }) => /^src\/domain\/(bank-messages|matching)\//.test(from)).map(({ from }) => `${f} → ${from}`));
    expect(crossing).toEqual([]);
  });
});

/** Files of src/operations that are not one verb: the shapes, the runner, the shared load step. */
const NOT_VERBS = ['src/operations/operation.ts', RUNNER, 'src/operations/targets.ts'];

function isOperation(value: unknown): value is Operation<unknown, unknown, unknown> {
  return typeof value === 'object' && value !== null && 'load' in value && 'check' in value && 'write' in value;
}

describe('one file per verb', () => {
  it('each verb file declares exactly one operation with every phase: name, who, input, emits, load, check, write', async () => {
    const verbs = files.filter((f) => inOperations(f) && !NOT_VERBS.includes(f));
    expect(verbs.length).toBeGreaterThanOrEqual(10);
    for (const file of verbs) {
      const module = (await import(path.join(ROOT, file))) as Record<string, unknown>;
      const declared = Object.values(module).filter(isOperation);
      expect(declared, file).toHaveLength(1);
      const op = declared[0]!;
      expect(typeof op.name, file).toBe('string');
      expect(['decider', 'payer', 'sandbox'], file).toContain(op.who);
      expect(typeof (op.input as { safeParse?: unknown }).safeParse, file).toBe('function');
      expect(Array.isArray(op.emits), file).toBe(true);
      for (const phase of ['load', 'check', 'write'] as const) expect(typeof op[phase], `${file} ${phase}`).toBe('function');
    }
  });
});
