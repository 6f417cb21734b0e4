import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from '../docs/doctest.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// The integration guide's Node, PHP and Python snippets verify with the amount (REST
// `POST /v1/payments/{id}/verify` with `{amount, currency}`): run here against a real service.
let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;
let confirmed: { id: string };

/** Runs a program with `input` on stdin, without blocking the event loop (the service under test answers it). */
function run(command: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-snippets-'));
const snippet = (lang: string) => fencedBlocks('integration.md').find((b) => b.lang === lang && b.info.doctest === 'webhook-verify')!.code;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
  // A payment of 150,000 toman (1,500,000 rials), confirmed by a simulated deposit.
  confirmed = (await createPaymentRest(app, shop.apiKey, { amount: 150_000, currency: 'IRT' })).body;
  const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: confirmed.id, outcome: 'match' } });
  expect(sim.body.payment.status).toBe('confirmed');
});
afterAll(() => app.stop());

describe('verify-with-amount snippets of integration.md', () => {
  it('Node: true for the payment’s amount in either unit, false for a mismatch', async () => {
    const file = path.join(dir, 'verify.mjs');
    writeFileSync(file, snippet('js'));
    const { verifyPayment } = (await import(file)) as { verifyPayment: (g: string, k: string, id: string, a: number | string, c?: string) => Promise<boolean> };
    expect(await verifyPayment(app.baseUrl, shop.apiKey, confirmed.id, 150_000, 'IRT')).toBe(true);
    expect(await verifyPayment(app.baseUrl, shop.apiKey, confirmed.id, '1500000')).toBe(true);
    expect(await verifyPayment(app.baseUrl, shop.apiKey, confirmed.id, 150_000)).toBe(false);
  });

  it('Python: true for the payment’s amount in either unit, false for a mismatch', async () => {
    const file = path.join(dir, 'verify.py');
    const driver = `\nimport json, sys\nd = json.load(sys.stdin)\nprint(json.dumps([verify_payment(d["g"], d["k"], d["id"], 150000, "IRT"), verify_payment(d["g"], d["k"], d["id"], "1500000"), verify_payment(d["g"], d["k"], d["id"], 150000)]))\n`;
    writeFileSync(file, snippet('python') + driver);
    const out = await run('python3', [file], JSON.stringify({ g: app.baseUrl, k: shop.apiKey, id: confirmed.id }));
    expect(JSON.parse(out)).toEqual([true, true, false]);
  });

  it('PHP: sends amount and currency and reads amount_mismatch (run where php with curl exists)', async (ctx) => {
    const code = snippet('php');
    expect(code).toContain("json_encode(['amount' => $amount, 'currency' => $currency])");
    expect(code).toContain("=== 'amount_mismatch'");
    try {
      execFileSync('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);']);
    } catch {
      return ctx.skip('php with curl is not installed');
    }
    const file = path.join(dir, 'verify.php');
    const driver = `\n$d = json_decode(file_get_contents('php://stdin'), true);\necho json_encode([verify_payment($d['g'], $d['k'], $d['id'], '150000', 'IRT'), verify_payment($d['g'], $d['k'], $d['id'], '150000')]);\n`;
    writeFileSync(file, code + driver);
    const out = await run('php', [file], JSON.stringify({ g: app.baseUrl, k: shop.apiKey, id: confirmed.id }));
    expect(JSON.parse(out)).toEqual([true, false]);
  });
});
