import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The import graph of our TypeScript, read from the text (dependency-cruiser and madge parse
// TypeScript through the compiler's JavaScript API, which TypeScript 7 no longer ships; our imports
// are one per statement). Type-only and dynamic imports count: they are arrows of the design too.

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

/** Where a `.js` specifier leads: the `.ts`, `.tsx` or `.d.ts` file beside it (`.ts` when none exists). */
function resolveSource(root: string, target: string): string {
  if (!target.endsWith('.js')) return target;
  const base = target.slice(0, -3);
  return [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`].find((f) => existsSync(path.join(root, f))) ?? `${base}.ts`;
}

/** The relative imports of `file` (a path from `root`), as paths from `root`. */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = m[1] ?? m[2] ?? m[3]!;
    return resolveSource(root, path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec)));
  });
}

/** The strongly connected components of more than one file (Tarjan): each a cycle, sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!idx.has(f)) visit(f);
  return out;
}
