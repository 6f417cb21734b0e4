import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importsOf } from '../support/import-graph.js';

// The dashboard (dashboard/src) has no import cycle, lazy pages included: a page imports the router
// (links, paths, navigation), the router imports no page, and the lazy-page table that imports every
// page is wired to the router's link preloading from main.tsx.
const ROOT = path.resolve(import.meta.dirname, '../..');

const files = readdirSync(path.join(ROOT, 'dashboard/src'), { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
  .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
const graph = new Map(files.map((f) => [f, importsOf(ROOT, f)]));

describe('the dashboard’s imports', () => {
  it('are read from every page and module, dynamic imports included', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(graph.get('dashboard/src/lazy-pages.tsx')).toContain('dashboard/src/pages/overview.tsx');
  });

  it('have no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
