import type { Command } from 'commander';
import { operatorActor } from '../domain/auth/actor.js';
import { addMerchantCredit, createMerchant, creditOf, setMerchantActive } from '../domain/merchants/merchants.js';
import { listMerchants, showMerchant } from '../domain/operator/directory.js';
import { rials, withDeps } from './deps.js';
import { merchantJson, merchantLine, print, projectJson, projectLine } from './output.js';
import { addUserCommands } from './user-commands.js';

type IdOpts = { id: string };

export function addMerchantCommands(program: Command): void {
  const merchant = program.command('merchant').description('Merchants, their credit and their dashboard users');
  addUserCommands(merchant);

  merchant
    .command('create')
    .description('Create a merchant and its first key (shown once)')
    .requiredOption('--name <name>', 'merchant name')
    .option('--credit <rials>', 'opening credit in rials', rials)
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; credit?: string }) => {
      const result = await withDeps((deps) => createMerchant(deps, operatorActor, { name: opts.name, credit: opts.credit }));
      print(
        { merchantId: result.merchant.id, merchantKey: result.merchantKey, credit: creditOf(result.merchant) },
        `Merchant ${result.merchant.id} created.\nMerchant key (shown once): ${result.merchantKey}`,
      );
    });

  merchant
    .command('credit')
    .description('Add credit (a top-up in the ledger)')
    .requiredOption('--id <merchantId>', 'merchant id')
    .requiredOption('--add <rials>', 'credit to add, in rials', rials)
    .option('--note <text>', 'ledger note')
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts & { add: string; note?: string }) => {
      const m = await withDeps((deps) => addMerchantCredit(deps, operatorActor, { merchantId: opts.id, amount: opts.add, note: opts.note }));
      const credit = creditOf(m);
      print({ merchantId: m.id, credit }, `Merchant ${m.id}: balance ${credit.balance}, available ${credit.available} rials`);
    });

  for (const [name, active] of [['activate', true], ['deactivate', false]] as const) {
    merchant
      .command(name)
      .description(active ? "Re-activate a merchant: its keys, devices and projects work again" : "Deactivate a merchant: its keys, devices and projects answer 403 merchant_inactive")
      .requiredOption('--id <merchantId>', 'merchant id')
      .option('--json', 'print one JSON object')
      .action(async (opts: IdOpts) => {
        const m = await withDeps((deps) => setMerchantActive(deps, operatorActor, opts.id, active));
        print(merchantJson(m), `Merchant ${m.id} ${active ? 'activated' : 'deactivated'}.`);
      });
  }

  merchant
    .command('list')
    .description('List merchants, newest first')
    .option('--json', 'print one JSON object')
    .action(async () => {
      const rows = await withDeps((deps) => listMerchants(deps, operatorActor));
      print({ items: rows.map(merchantJson) }, rows.length ? rows.map(merchantLine).join('\n') : 'No merchants.');
    });

  merchant
    .command('show')
    .description('Show one merchant with its projects')
    .requiredOption('--id <merchantId>', 'merchant id')
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts) => {
      const m = await withDeps((deps) => showMerchant(deps, operatorActor, opts.id));
      print(
        { ...merchantJson(m), projects: m.projects.map(projectJson) },
        [merchantLine(m), ...(m.projects.length ? m.projects.map((p) => `  ${projectLine(p)}`) : ['  no projects'])].join('\n'),
      );
    });
}
