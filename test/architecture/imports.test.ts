import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The structure drawn from the imports (docs/architecture.md): layers only import downward and no
// file imports itself back through others. Type-only imports count: they are arrows of the design
// too. (dependency-cruiser and madge parse TypeScript through the compiler's JavaScript API, which
// TypeScript 7 no longer ships, so the graph is read here: our imports are one per statement.)
const ROOT = path.resolve(import.meta.dirname, '../..');

type Layer = 'door' | 'flow' | 'domain' | 'infrastructure';
const RANK: Record<Layer, number> = { door: 3, flow: 2, domain: 1, infrastructure: 0 };

function layerOf(file: string): Layer {
  if (file.startsWith('src/flows/')) return 'flow';
  if (file.startsWith('src/domain/')) return 'domain';
  // src/runtime.ts and src/main.ts compose every layer (the composition root): doors.
  if (/^src\/(db|queue|events)\//.test(file) || /^src\/(errors|error-translator|logger|config)\.ts$/.test(file)) return 'infrastructure';
  return 'door';
}

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('src/generated/'));
}

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec)).replace(/\.js$/, '.ts');
    found.push(target);
  }
  return found;
}

const files = [...sources('src'), ...sources('jobs')];
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => !t.startsWith('src/generated/'))]));

/** Strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
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
    expect(cycles()).toEqual([]);
  });

  it('the domain never imports a door, and no folder is named for speed', () => {
    expect(files.filter((f) => f.startsWith('src/db/hot/'))).toEqual([]);
  });
});
