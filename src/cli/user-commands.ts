import type { Command } from 'commander';
import { operatorActor } from '../domain/auth/actor.js';
import { USER_ROLES } from '../domain/auth/roles.js';
import { operatorResetLink } from '../domain/users/password-reset.js';
import { addUser } from '../domain/users/users.js';
import { withDeps } from './deps.js';
import { print } from './output.js';

/** `merchant user …`: dashboard users of a merchant. */
export function addUserCommands(merchant: Command): void {
  const user = merchant.command('user').description('Dashboard users of a merchant');

  user
    .command('add')
    .description('Add a dashboard user; prints a one-time set-password link (24 h)')
    .requiredOption('--id <merchantId>', 'merchant id')
    .requiredOption('--email <email>', 'the user’s email (their sign-in name)')
    .requiredOption('--role <role>', `one of ${USER_ROLES.join(', ')}`)
    .option('--json', 'print one JSON object')
    .action(async (opts: { id: string; email: string; role: string }) => {
      const created = await withDeps((deps) => addUser(deps, operatorActor, { merchantId: opts.id, email: opts.email, role: opts.role }));
      print(
        { userId: created.user.id, merchantId: created.user.merchantId, email: created.user.email, role: created.user.role, setPasswordUrl: created.setPasswordUrl },
        `User ${created.user.id} (${created.user.email}, ${created.user.role}) added.\nSet-password link (one use, 24 h; shown once): ${created.setPasswordUrl}`,
      );
    });

  user
    .command('reset')
    .description('A forgotten password: a new one-time set-password link (1 h); the user’s sessions end now')
    .requiredOption('--email <email>', 'the user’s email')
    .option('--json', 'print one JSON object')
    .action(async (opts: { email: string }) => {
      const reset = await withDeps((deps) => operatorResetLink(deps, { email: opts.email }));
      print(reset, `Set-password link for ${reset.email} (one use, 1 h; shown once): ${reset.setPasswordUrl}\n${reset.sessionsEnded} session(s) ended.`);
    });
}
