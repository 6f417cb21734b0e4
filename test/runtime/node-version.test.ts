import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies.node!;

describe('runtime', () => {
  it('tests run on the Node pinned in package.json (Node 24 LTS from the npm registry), not the machine’s', () => {
    expect(process.versions.node).toBe(pinned);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('the `node` that npm scripts and child processes find first is that same binary', () => {
    const version = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${pinned}`);
  });
});
