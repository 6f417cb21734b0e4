import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase, type OpenDatabase } from '../db/open.js';
import { createPrisma } from '../db/prisma.js';
import { operatorActor } from '../domain/auth/actor.js';
import { SecretBox } from '../domain/auth/secret-box.js';
import { ensureDemo } from '../domain/demo/demo.js';
import type { Deps } from '../domain/deps.js';
import { addMerchantCredit, createMerchant, creditOf, setMerchantActive } from '../domain/merchants/merchants.js';
import { setProjectFee, suspendProject } from '../domain/projects/projects.js';
import { AppError, isAppError } from '../errors.js';
import { createLogger } from '../logger.js';
import type { JobQueue } from '../queue/job-queue.js';

/** Operator CLI. Logs go to stderr; with --json, stdout carries exactly one JSON object. */
type Output = { json: boolean };

function rials(value: string): string {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a whole number of rials');
  return value;
}

function integer(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

function print(out: Output, obj: Record<string, unknown>, human: string) {
  const text = out.json ? JSON.stringify(obj, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) : human;
  process.stdout.write(`${text}\n`);
}

// The CLI sends no jobs; a queue that refuses makes any accidental use loud.
const noJobs = {
  send: () => Promise.reject(new Error('the operator CLI does not enqueue jobs')),
} as unknown as JobQueue;

async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn', 'cli');
  let db: OpenDatabase | undefined;
  const prisma = await (async () => {
    db = await openDatabase(config, log);
    return createPrisma(db.databaseUrl, 2);
  })();
  try {
    return await fn({ config, prisma, log, secrets: new SecretBox(db!.secretKey), jobs: noJobs, notifier: null, limits: null });
  } finally {
    await prisma.$disconnect();
    await db?.close();
  }
}

const program = new Command('gateway-cli').description('Operator commands for the card-to-card gateway').showHelpAfterError();

const merchant = program.command('merchant').description('Merchants and their credit');

merchant
  .command('create')
  .requiredOption('--name <name>', 'merchant name')
  .option('--credit <rials>', 'opening credit in rials', rials)
  .option('--json', 'print one JSON object')
  .action(async (opts: { name: string; credit?: string; json?: boolean }) => {
    const result = await withDeps((deps) => createMerchant(deps, operatorActor, { name: opts.name, credit: opts.credit }));
    print(
      { json: Boolean(opts.json) },
      { merchantId: result.merchant.id, merchantKey: result.merchantKey, credit: creditOf(result.merchant) },
      `Merchant ${result.merchant.id} created.\nMerchant key (shown once): ${result.merchantKey}`,
    );
  });

merchant
  .command('credit')
  .requiredOption('--id <merchantId>', 'merchant id')
  .requiredOption('--add <rials>', 'credit to add, in rials', rials)
  .option('--note <text>', 'ledger note')
  .option('--json', 'print one JSON object')
  .action(async (opts: { id: string; add: string; note?: string; json?: boolean }) => {
    const m = await withDeps((deps) => addMerchantCredit(deps, operatorActor, { merchantId: opts.id, amount: opts.add, note: opts.note }));
    const credit = creditOf(m);
    print({ json: Boolean(opts.json) }, { merchantId: m.id, credit }, `Merchant ${m.id}: balance ${credit.balance}, available ${credit.available} rials`);
  });

merchant
  .command('deactivate')
  .requiredOption('--id <merchantId>', 'merchant id')
  .option('--json', 'print one JSON object')
  .action(async (opts: { id: string; json?: boolean }) => {
    const m = await withDeps((deps) => setMerchantActive(deps, operatorActor, opts.id, false));
    print({ json: Boolean(opts.json) }, { merchantId: m.id, active: m.active }, `Merchant ${m.id} deactivated.`);
  });

const project = program.command('project').description('Projects');

project
  .command('deactivate')
  .description('Suspend a project; the merchant cannot lift an operator suspension')
  .requiredOption('--id <projectId>', 'project id')
  .option('--json', 'print one JSON object')
  .action(async (opts: { id: string; json?: boolean }) => {
    const p = await withDeps((deps) => suspendProject(deps, operatorActor, opts.id));
    print({ json: Boolean(opts.json) }, { projectId: p.id, suspended: p.suspendedAt !== null }, `Project ${p.id} suspended.`);
  });

project
  .command('fee')
  .requiredOption('--id <projectId>', 'project id')
  .requiredOption('--bps <n>', 'fee in basis points of amountFinal', integer)
  .requiredOption('--min <rials>', 'minimum fee', rials)
  .requiredOption('--max <rials>', 'maximum fee', rials)
  .option('--json', 'print one JSON object')
  .action(async (opts: { id: string; bps: number; min: string; max: string; json?: boolean }) => {
    const p = await withDeps((deps) =>
      setProjectFee(deps, operatorActor, { projectId: opts.id, bps: opts.bps, min: BigInt(opts.min), max: BigInt(opts.max) }),
    );
    print(
      { json: Boolean(opts.json) },
      { projectId: p.id, feeBps: p.feeBps, feeMin: p.feeMin, feeMax: p.feeMax },
      `Project ${p.id}: fee ${p.feeBps} bps, min ${p.feeMin}, max ${p.feeMax} rials`,
    );
  });

program
  .command('demo')
  .description('Show the demo sandbox ids and re-issue its keys (the old ones are revoked)')
  .option('--json', 'print one JSON object')
  .action(async (opts: { json?: boolean }) => {
    const demo = await withDeps((deps) => ensureDemo(deps, operatorActor));
    const { created: _created, ...ids } = demo;
    print(
      { json: Boolean(opts.json) },
      ids,
      [
        `Demo merchant ${demo.merchantId}, sandbox project ${demo.projectId}, card ${demo.cardId}, link "${demo.linkSlug}"`,
        `  merchant key: ${demo.merchantKey}`,
        `  project API key: ${demo.apiKey}`,
      ].join('\n'),
    );
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  const json = process.argv.includes('--json');
  const appError = isAppError(err) ? err : err instanceof ConfigError ? new AppError('invalid_request', err.message) : null;
  if (appError) {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: appError.code, message: appError.message, details: appError.details } })}\n`);
    process.stderr.write(`${appError.code}: ${appError.message}\n`);
  } else {
    process.stderr.write(`error: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
