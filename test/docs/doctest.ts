import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { waitFor } from '../support/process.js';

/**
 * Runnable examples in the docs are fenced blocks whose info string holds the word `doctest`:
 *
 *   ```sh doctest                     a shell command; must exit 0
 *   ```sh doctest=service             a long-running process: started, seen listening, stopped with SIGTERM
 *   ```sh doctest requires=pg_dump    run only where that tool fits the server (else reported skipped)
 *   ```http doctest status=201 capture=PAYMENT_ID:id     `METHOD /path`, headers, blank line, body
 *   ```graphql doctest key=API_KEY capture=ID:createPayment.id [expect=errors]
 *   ```js|php|python doctest=webhook-verify              checked against a real webhook delivery
 *   ```json doctest=answer            the answer of the request just before it, as the guide shows it
 *
 * `$NAME` (upper case) in a block is replaced by the fixture's or an earlier capture's value.
 *
 * An answer block is checked against the JSON the request before it got back (a REST body, or a
 * GraphQL response `{data}` / `{errors}`): every field it shows must be there with that value, in
 * arrays item by item; fields it leaves out are not checked. A key `"…"` stands for "the other
 * fields" and an array ending in the string `"…"` for "and more items".
 */
export type Block = { file: string; line: number; lang: string; info: Record<string, string>; code: string };

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DOCS_DIR = path.join(ROOT, 'docs');

/** Every fenced block of a markdown file, indented ones (in lists) included. */
export function fencedBlocks(file: string): Block[] {
  const lines = readFileSync(path.join(DOCS_DIR, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w+)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]!); j++) body.push(lines[j]!.slice(indent));
    const info = Object.fromEntries(open[3]!.split(/\s+/).filter(Boolean).map((t) => [t.split('=')[0]!, t.split('=').slice(1).join('=')]));
    blocks.push({ file, line: i + 1, lang: open[2]!, info, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

export type Vars = Map<string, string>;

export function substitute(text: string, vars: Vars): string {
  return text.replace(/\$([A-Z][A-Z0-9_]*)/g, (whole, name: string) => vars.get(name) ?? whole);
}

function pick(value: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

function capture(block: Block, from: unknown, vars: Vars) {
  for (const pair of (block.info.capture ?? '').split(',').filter(Boolean)) {
    const [name, where] = pair.split(':') as [string, string];
    const value = pick(from, where);
    expect(value, `${block.file}:${block.line} capture ${pair}`).toBeTypeOf('string');
    vars.set(name, value as string);
  }
}

/** The JSON the last request got back, for the answer block after it. */
let lastAnswer: { file: string; line: number; body: unknown } | null = null;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function runHttp(block: Block, vars: Vars): Promise<void> {
  lastAnswer = null;
  const [head, ...rest] = substitute(block.code, vars).split('\n\n');
  const [requestLine, ...headerLines] = head!.split('\n');
  const [method, target] = requestLine!.trim().split(/\s+/) as [string, string];
  const headers = Object.fromEntries(headerLines.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]));
  const body = rest.join('\n\n').trim() || undefined;
  const res = await fetch(`${vars.get('GATEWAY')}${target}`, { method, headers, body });
  const text = await res.text();
  expect(res.status, `${block.file}:${block.line} ${method} ${target}: ${text.slice(0, 300)}`).toBe(Number(block.info.status ?? 200));
  lastAnswer = { file: block.file, line: block.line, body: parsed(text) };
  if (block.info.capture) capture(block, JSON.parse(text), vars);
}

export async function runGraphql(block: Block, vars: Vars): Promise<void> {
  lastAnswer = null;
  const key = block.info.key ? vars.get(block.info.key) : undefined;
  const res = await fetch(`${vars.get('GATEWAY')}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query: substitute(block.code, vars) }),
  });
  const answer = (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  const at = `${block.file}:${block.line}: ${JSON.stringify(answer).slice(0, 400)}`;
  lastAnswer = { file: block.file, line: block.line, body: answer };
  if (block.info.expect === 'errors') {
    expect(answer.errors?.[0]?.extensions?.code, at).toBeTypeOf('string');
    return;
  }
  expect(answer.errors, at).toBeUndefined();
  capture(block, answer.data, vars);
}

const MORE = '…';

/** What of `actual` the shown answer speaks of: its keys only, arrays cut where the answer says "…". */
function projection(actual: unknown, shown: unknown): unknown {
  if (Array.isArray(shown) && Array.isArray(actual)) {
    const more = shown.at(-1) === MORE;
    const items = more ? shown.slice(0, -1) : shown;
    const kept = more ? actual.slice(0, items.length) : actual;
    return [...kept.map((a, i) => (i < items.length ? projection(a, items[i]) : a)), ...(more ? [MORE] : [])];
  }
  if (shown && typeof shown === 'object' && !Array.isArray(shown) && actual && typeof actual === 'object' && !Array.isArray(actual)) {
    const a = actual as Record<string, unknown>;
    const s = shown as Record<string, unknown>;
    return Object.fromEntries(Object.keys(s).filter((k) => k !== MORE && k in a).map((k) => [k, projection(a[k], s[k])]));
  }
  return actual;
}

function withoutMore(shown: unknown): unknown {
  if (Array.isArray(shown)) return shown.map(withoutMore);
  if (shown && typeof shown === 'object') return Object.fromEntries(Object.entries(shown).filter(([k]) => k !== MORE).map(([k, v]) => [k, withoutMore(v)]));
  return shown;
}

/** Checks an answer block (`json doctest=answer`) against what `request`, the block before it, got back. */
export function checkAnswer(block: Block, vars: Vars, request: Block | undefined): void {
  const at = `${block.file}:${block.line}`;
  expect(request, `${at}: an answer block follows a request`).toBeDefined();
  expect(lastAnswer && lastAnswer.file === request!.file && lastAnswer.line === request!.line, `${at}: the request at line ${request!.line} got no answer`).toBe(true);
  const shown = withoutMore(JSON.parse(substitute(block.code, vars)));
  expect(projection(lastAnswer!.body, shown), `${at}: the answer of line ${request!.line} was ${JSON.stringify(lastAnswer!.body).slice(0, 1500)}`).toEqual(shown);
}

type Run = { code: number | null; stdout: string; stderr: string };

function bash(script: string, env: Record<string, string>, opts: { detached?: boolean } = {}) {
  const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], { cwd: ROOT, env: { ...process.env, ...env }, detached: opts.detached });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // 'close', not 'exit': a service's own processes may still be writing after bash has gone.
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stdout: () => stdout };
}

const varsEnv = (vars: Vars) => Object.fromEntries(vars);

export async function runShell(block: Block, vars: Vars, env: Record<string, string> = {}): Promise<Run> {
  const run = await bash(block.code, { ...varsEnv(vars), ...env }).done;
  expect(run.code, `${block.file}:${block.line}\n${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

/**
 * Starts a service command, waits until it says it is up (and, if it serves HTTP, is ready), then
 * stops it with SIGTERM. `started` is called once it is up (or has failed to come up): from then on
 * its process has read all it reads from disk at start-up.
 */
export async function runService(block: Block, env: Record<string, string>, started: () => void = () => undefined): Promise<void> {
  const port = await freePort();
  const run = bash(block.code, { ...env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { detached: true });
  let exited = false;
  void run.done.then(() => (exited = true));
  try {
    await waitFor(() => exited || /listening on port|worker running/i.test(run.stdout()), 60_000, `${block.file}:${block.line} to start`).finally(started);
    expect(exited, `${block.file}:${block.line} exited early:\n${run.stdout()}`).toBe(false);
    if (/listening on port/i.test(run.stdout())) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
    }
  } finally {
    if (!exited) process.kill(-run.child.pid!, 'SIGTERM');
  }
  await run.done;
  expect(run.stdout()).toMatch(/Stopped\./);
}
