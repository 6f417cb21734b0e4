import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { operatorActor } from '../domain/auth/actor.js';
import { ensureDemo } from '../domain/demo/demo.js';
import { isAppError } from '../errors.js';
import { withDeps } from './deps.js';
import { addMerchantCommands } from './merchant-commands.js';
import { addOperatorCommands } from './operator-commands.js';
import { jsonMode, print, printError } from './output.js';
import { addProjectCommands } from './project-commands.js';

/** Operator CLI: `npm run -s cli -- <command> [--json]` (-s keeps npm's banner off stdout). */
let helpText = '';
const program = new Command('cli')
  .description('Operator commands for the card-to-card gateway')
  // Set before the subcommands are added, so they inherit it: usage errors come back to us as
  // CommanderErrors, and in JSON mode help text is held for the one JSON object.
  .exitOverride()
  .configureOutput({
    writeOut: (text) => (jsonMode ? (helpText += text) : process.stdout.write(text)),
    writeErr: (text) => process.stderr.write(text),
    outputError: (text, write) => (jsonMode ? undefined : write(text)),
  })
  .showHelpAfterError();

addMerchantCommands(program);
addProjectCommands(program);
addOperatorCommands(program);

program
  .command('demo')
  .description('Show the demo sandbox ids and re-issue its keys and owner password (the old ones are revoked)')
  .option('--json', 'print one JSON object')
  .action(async () => {
    // The demo's activity (payments in every state) is seeded by `npm start`, which runs the job
    // queue its payments need; the CLI only makes the rows and keys.
    const demo = await withDeps((deps) => ensureDemo(deps, operatorActor));
    const { created: _created, apiKeyId: _keyId, ...ids } = demo;
    print(ids, [
      `Demo merchant ${demo.merchantId}, sandbox project ${demo.projectId}, card ${demo.cardId}, link "${demo.linkSlug}"`,
      `  merchant key: ${demo.merchantKey}`,
      `  project API key: ${demo.apiKey}`,
      `  dashboard owner: ${demo.ownerEmail}   password: ${demo.ownerPassword}`,
    ].join('\n'));
  });

function fail(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    if (err.exitCode === 0) {
      if (jsonMode) print({ help: helpText }, '');
      return 0;
    }
    // Without --json, commander has already written the error and the usage to stderr.
    if (jsonMode) printError('invalid_request', err.message.replace(/^error: /, ''), { usage: err.code });
    return err.exitCode || 1;
  }
  if (isAppError(err)) printError(err.code, err.message, err.details);
  else if (err instanceof ConfigError) printError('invalid_request', err.message);
  else {
    printError('internal_error', err instanceof Error ? err.message : String(err));
    process.stderr.write(`${err instanceof Error ? err.stack : ''}\n`);
  }
  return 1;
}

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (err: unknown) => process.exit(fail(err)),
);
