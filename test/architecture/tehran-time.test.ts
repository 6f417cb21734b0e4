import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Tehran time is read from the time-zone data in one module per program: the server's
// src/domain/calendar/tehran-calendar.ts and the dashboard's dashboard/src/tehran.ts. SQL reads it
// with AT TIME ZONE 'Asia/Tehran', in the stores' statements and src/domain/<concern>/sql/. No code
// writes Tehran's offset down: it changes the day Iran's rules do.
const ROOT = path.resolve(import.meta.dirname, '../..');
const OWNERS = ['src/domain/calendar/tehran-calendar.ts', 'dashboard/src/tehran.ts'];

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.includes('/generated/'));
}

/** A concern's store: its SQL says AT TIME ZONE 'Asia/Tehran'. */
const inStore = (f: string) => /^src\/domain\/.+\/store\//.test(f);

/** A file's code without its comments (a comment may say "+03:30 since 2022"). */
const codeOf = (file: string) =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/(^|\s)\/\*[\s\S]*?\*\//g, '$1')
    .replace(/(^|\s)\/\/.*$/gm, '$1');

const files = [...sources('src'), ...sources('jobs'), ...sources('dashboard/src')];

describe('Tehran time', () => {
  it('is named (Asia/Tehran) only by its two modules and by SQL', () => {
    expect(files).toEqual(expect.arrayContaining(OWNERS));
    expect(files.filter((f) => !OWNERS.includes(f) && !inStore(f) && codeOf(f).includes('Asia/Tehran'))).toEqual([]);
  });

  it('is never a fixed offset: no +03:30, 3.5 hours or 210 minutes in code', () => {
    const fixed = /[+-]0?3:30\b|\b3\.5\s*\*|\*\s*3\.5\b|\b210\b|\b12_?600(?:_?000)?\b/;
    expect(files.filter((f) => fixed.test(codeOf(f)))).toEqual([]);
  });
});
