import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importsOf } from '../support/import-graph.js';

// The structure drawn from the imports (docs/architecture.md): layers only import downward and no
// file imports itself back through others. Type-only imports count: they are arrows of the design
// too (the graph is read by test/support/import-graph.ts).
const ROOT = path.resolve(import.meta.dirname, '../..');

// Presenters render domain rows for the doors (REST JSON, verify results): below every door, above
// the flows and the domain, which return rows and never render (docs/architecture.md). Operations
// (src/operations: the merchant's decisions and their runner) stand beside the flows.
type Layer = 'door' | 'presenter' | 'operation' | 'flow' | 'domain' | 'infrastructure';
const RANK: Record<Layer, number> = { door: 4, presenter: 3, operation: 2, flow: 2, domain: 1, infrastructure: 0 };

function layerOf(file: string): Layer {
  if (file.startsWith('src/presenters/')) return 'presenter';
  if (file.startsWith('src/operations/')) return 'operation';
  if (file.startsWith('src/flows/')) return 'flow';
  if (file.startsWith('src/domain/')) return 'domain';
  // src/runtime.ts and src/main.ts compose every layer (the composition root): doors.
  if (/^src\/(db|queue|events)\//.test(file) || /^src\/(errors|error-translator|logger|config|paths|gc|ordered-json)\.ts$/.test(file)) return 'infrastructure';
  return 'door';
}

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('src/generated/'));
}

const files = [...sources('src'), ...sources('jobs')];
const graph = new Map(files.map((f) => [f, importsOf(ROOT, f).filter((t) => !t.startsWith('src/generated/'))]));

/** A file's code without its comments: a comment may name `statement()` or `.query(` in passing. */
function codeOf(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** Ways to send SQL text: Prisma's raw queries, a `statement(...)` of src/db/statement.ts, node-postgres's `.query(`. */
const SQL_SENDERS: [string, RegExp][] = [
  ['$queryRaw/$executeRaw', /\$(?:query|execute)Raw(?:Unsafe|Typed)?\b/],
  ['Prisma.sql/Prisma.raw', /\bPrisma\.(?:sql|raw)\b/],
  ['statement(...)', /\bstatement\s*(?:<[^()]*?>)?\s*\(/],
  ['.query(...)', /\.query\s*(?:<[^()]*?>)?\s*\(/],
];

/** A file of a concern's store: `src/domain/<concern>/store/…`. */
const inStore = (f: string) => /^src\/domain\/.+\/store\//.test(f);

/** Every `statement(...)` call in src: its file and its label (null when the label is not a string literal). */
function statementCalls(): { file: string; label: string | null }[] {
  const calls: { file: string; label: string | null }[] = [];
  for (const file of files.filter((f) => f.startsWith('src/') && f !== 'src/db/statement.ts')) {
    for (const m of codeOf(file).matchAll(/\bstatement\s*(?:<[^()]*?>)?\s*\(\s*(?:(['"`])([^'"`]*)\1)?/g)) calls.push({ file, label: m[2] ?? null });
  }
  return calls;
}

describe('the structure drawn from the imports', () => {
  it('reads every source file and resolves every relative import', () => {
    expect(files.length).toBeGreaterThan(100);
    const unresolved = [...graph.entries()].flatMap(([f, ts]) => ts.filter((t) => !graph.has(t)).map((t) => `${f} → ${t}`));
    expect(unresolved).toEqual([]);
  });

  it('has no arrow running upward (door → flow → domain → infrastructure)', () => {
    const upward = [...graph.entries()].flatMap(([f, ts]) => ts.filter((t) => RANK[layerOf(t)] > RANK[layerOf(f)]).map((t) => `${f} (${layerOf(f)}) → ${t} (${layerOf(t)})`));
    expect(upward).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the domain never imports a door, and no folder is named for speed', () => {
    expect(files.filter((f) => f.startsWith('src/db/hot/'))).toEqual([]);
  });

  it('renders in presenters, used by the doors only: the domain and the flows return rows', () => {
    expect(files.filter((f) => layerOf(f) === 'presenter').length).toBeGreaterThan(1);
    const rendering = [...graph.entries()].flatMap(([f, ts]) => (RANK[layerOf(f)] < RANK.presenter ? ts.filter((t) => layerOf(t) === 'presenter').map((t) => `${f} → ${t}`) : []));
    expect(rendering).toEqual([]);
  });
});

// docs/architecture.md "Data access": inside the domain, Prisma's typed client for ordinary reads
// and writes; SQL text only in a concern's store, each statement a named function.
describe('one way to reach the database inside the domain', () => {
  it('sends SQL text only from a store (src/domain/<concern>/store/): elsewhere in the domain, the flows and the operations, Prisma only', () => {
    const domain = files.filter((f) => /^src\/(domain|flows|operations)\//.test(f));
    expect(domain.filter(inStore).length).toBeGreaterThan(10);
    const outside = domain.filter((f) => !inStore(f)).flatMap((f) => {
      const code = codeOf(f);
      return SQL_SENDERS.filter(([, re]) => re.test(code)).map(([what]) => `${f}: ${what}`);
    });
    expect(outside).toEqual([]);
  });

  it('writes and locks payments and amount holds only from the payments store', () => {
    // Upper-case SQL, as every statement here is written; a lock is a FOR UPDATE/SHARE in the same literal as its FROM.
    const writes = /\b(?:UPDATE|INSERT INTO|DELETE FROM)\s+(?:payments|amount_holds)\b|\bFROM\s+(?:payments|amount_holds)\b[^`'"]*?\bFOR\s+(?:NO KEY\s+)?(?:UPDATE|SHARE|KEY SHARE)\b/;
    const elsewhere = files.filter((f) => !f.startsWith('src/domain/payments/store/') && writes.test(codeOf(f)));
    expect(elsewhere).toEqual([]);
  });

  it('names every statement(...) with its own literal label (the statement log shows it)', () => {
    const calls = statementCalls();
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.filter((c) => c.label === null).map((c) => c.file)).toEqual([]);
    const seen = new Map<string, string[]>();
    for (const { file, label } of calls) seen.set(label!, [...(seen.get(label!) ?? []), file]);
    expect([...seen.entries()].filter(([, at]) => at.length > 1).map(([label, at]) => `${label}: ${at.join(', ')}`)).toEqual([]);
  });
});
