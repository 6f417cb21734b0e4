import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The repository stands alone: code, tests and docs cite the project's own documents (docs/*.md,
// schema.graphql, the OpenAPI document), never a file outside the repository nor the outside
// interface documents by section. A rule a comment relies on that no project document states goes
// into docs/decisions.md first, then gets cited. The patterns are built from pieces so that this
// file does not match itself.
const ROOT = path.resolve(import.meta.dirname, '../..');
const PLACES = ['src', 'jobs', 'dashboard/src', 'scripts', 'bench', 'test', 'docs', 'README.md', '.ci', 'prisma/schema.prisma'];
const SKIP_DIRS = new Set(['node_modules', 'generated', 'dist']);
const OUTSIDE = 'CON' + 'TRACT';
const SPEC = 'SP' + 'EC';

const FORBIDDEN: { why: string; pattern: RegExp }[] = [
  { why: 'a path outside the repository', pattern: new RegExp(String.raw`\.\./sha` + 'red') },
  { why: 'an outside document', pattern: new RegExp(`\\b(?:${OUTSIDE}|${SPEC})\\.md\\b`) },
  { why: 'an outside document by section', pattern: new RegExp(`\\b${OUTSIDE}\\b`) },
  { why: 'the outside spec by section', pattern: new RegExp(`\\b${SPEC}(?: \\d|:)`) },
  { why: 'an outside document in prose', pattern: new RegExp(`\\bthe ${OUTSIDE.toLowerCase()}(?:'s|’s)?\\b`, 'i') },
];

function filesUnder(place: string): string[] {
  const full = path.join(ROOT, place);
  if (statSync(full, { throwIfNoEntry: false })?.isFile()) return [place];
  const out: string[] = [];
  for (const e of readdirSync(full, { withFileTypes: true })) {
    const rel = path.join(place, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) out.push(...filesUnder(rel));
    } else if (e.isFile()) out.push(rel);
  }
  return out;
}

function offences(text: string): { line: number; why: string; text: string }[] {
  const found: { line: number; why: string; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { why, pattern } of FORBIDDEN) {
      if (pattern.test(line)) found.push({ line: i + 1, why, text: line.trim().slice(0, 120) });
    }
  });
  return found;
}

describe('citations', () => {
  it('recognises each kind of outside citation (so the scan below can fail)', () => {
    const samples = [
      `see ${'..'}/shared/STYLE.md`,
      `(${OUTSIDE} "Exceptions")`,
      `${OUTSIDE}: expired within 5 s`,
      `${OUTSIDE}.md`,
      `${SPEC} 2.3 for the payer`,
      `${SPEC}: 10,000 .. 1e9 rials`,
      `${SPEC}.md`,
      `past the ${OUTSIDE.toLowerCase()}'s 5 s`,
    ];
    for (const s of samples) expect(offences(s), s).not.toEqual([]);
    for (const s of ['docs/integration.md "1. Create a payment"', 'Contracted in two steps', 'the spec’s SHOULD', 'SPECIAL']) {
      expect(offences(s), s).toEqual([]);
    }
  });

  it('finds none in src, jobs, dashboard/src, scripts, bench, test, docs, README.md, .ci and the Prisma schema', () => {
    const bad: string[] = [];
    for (const file of PLACES.flatMap(filesUnder)) {
      const bytes = readFileSync(path.join(ROOT, file));
      if (bytes.includes(0)) continue; // images and other binaries
      for (const o of offences(bytes.toString('utf8'))) bad.push(`${file}:${o.line} (${o.why}): ${o.text}`);
    }
    expect(bad).toEqual([]);
  });
});
