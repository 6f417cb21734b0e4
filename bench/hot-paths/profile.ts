/** The top self-time entries of a `--cpu-prof` profile, grouped by function and package. */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Where a frame lives: the npm package, or the file under src/. */
function place(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/work\/main\/(.*)$/.exec(url);
  if (src) return src[1]!;
  return url === '' ? '(native)' : url.replace(/^node:/, 'node:');
}

export function summarize(file: string, top = 15): { byFunction: string[]; byPlace: string[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const where = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url } = byId.get(id)!.callFrame;
    const p = place(url);
    const key = `${functionName || '(anonymous)'} — ${p}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    where.set(p, (where.get(p) ?? 0) + us);
  }
  const fmt = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
  return { byFunction: fmt(fn), byPlace: fmt(where) };
}

// Run directly: `node --import tsx bench/hot-paths/profile.ts <file.cpuprofile>`.
const [, entry, file] = process.argv;
if (entry && file && import.meta.url === pathToFileURL(entry).href) {
  const s = summarize(file);
  console.log(['self time by function:', ...s.byFunction, '', 'self time by package / file:', ...s.byPlace].join('\n'));
}
