import type { Command } from 'commander';
import { operatorActor } from '../domain/auth/actor.js';
import { setTopUpProject } from '../domain/credit/topups.js';
import { AppError } from '../errors.js';
import { withDeps } from './deps.js';
import { print } from './output.js';

/** `operator …`: the operator's own settings. */
export function addOperatorCommands(program: Command): void {
  const operator = program.command('operator').description('The operator’s own settings');

  operator
    .command('topup-project')
    .description('Name the project (of your own merchant) whose payments buy merchants’ fee credit (createCreditTopUp); --clear to stop')
    .option('--id <projectId>', 'the project that receives top-up payments')
    .option('--clear', 'no top-up project: merchants are told to ask you')
    .option('--json', 'print one JSON object')
    .action(async (opts: { id?: string; clear?: boolean }) => {
      if (!opts.id === !opts.clear) throw AppError.invalid([{ field: 'id', message: 'give exactly one of --id <projectId> and --clear' }]);
      const set = await withDeps((deps) => setTopUpProject(deps, operatorActor, opts.clear ? null : opts.id!));
      print(set, set.projectId ? `Top-ups are paid to project ${set.projectId} (merchant ${set.merchantId}).` : 'No top-up project: merchants are told to ask you.');
    });
}
