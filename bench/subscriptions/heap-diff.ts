/**
 * The difference between two V8 heap snapshots, per subscription: objects counted by kind and
 * constructor (or function name for closures), self sizes summed. Good up to a few thousand open
 * subscriptions (the snapshot is read whole: SUBS_COUNT=2000 with --snapshot).
 */
import { readFile } from 'node:fs/promises';

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
};

async function histogram(file: string): Promise<Map<string, { count: number; size: number }>> {
  const s = JSON.parse(await readFile(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const types = s.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    // Strings and numbers by kind only: their "name" is their content.
    const name = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' || type === 'array' ? s.strings[s.nodes[i + nameAt]!]!.slice(0, 60) : '';
    const key = `${type}${name ? ` ${name}` : ''}`;
    const row = out.get(key) ?? { count: 0, size: 0 };
    row.count++;
    row.size += s.nodes[i + sizeAt]!;
    out.set(key, row);
  }
  return out;
}

/** A Markdown table of the top rows of (after − before) / per, by bytes. */
export async function diffSnapshots(beforeFile: string, afterFile: string, per: number, top = 30): Promise<string> {
  const before = await histogram(beforeFile);
  const after = await histogram(afterFile);
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, size: 0 };
    return { key, count: (a.count - b.count) / per, size: (a.size - b.size) / per };
  });
  rows.sort((x, y) => y.size - x.size);
  const total = rows.reduce((s, r) => s + r.size, 0);
  const lines = ['| kind and constructor | objects each | bytes each |', '|---|---:|---:|'];
  for (const r of rows.slice(0, top)) lines.push(`| ${r.key.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | ${r.count.toFixed(2)} | ${r.size.toFixed(0)} |`);
  lines.push(`| all (self sizes) | | ${total.toFixed(0)} |`);
  return lines.join('\n');
}
