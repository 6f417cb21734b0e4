import type { Command } from 'commander';
import { operatorActor } from '../domain/auth/actor.js';
import { listProjects, showProject } from '../domain/operator/directory.js';
import { liftProjectSuspension, setProjectFee, suspendProject } from '../domain/projects/projects.js';
import { integer, rials, withDeps } from './deps.js';
import { print, projectJson, projectLine } from './output.js';

type IdOpts = { id: string };

export function addProjectCommands(program: Command): void {
  const project = program.command('project').description('Projects');

  project
    .command('deactivate')
    .description('Suspend a project; the merchant cannot lift an operator suspension')
    .requiredOption('--id <projectId>', 'project id')
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts) => {
      const p = await withDeps((deps) => suspendProject(deps, operatorActor, opts.id));
      print(projectJson(p), `Project ${p.id} suspended.`);
    });

  project
    .command('activate')
    .description("Lift the operator's suspension (the merchant's own active switch stays as the merchant set it)")
    .requiredOption('--id <projectId>', 'project id')
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts) => {
      const p = await withDeps((deps) => liftProjectSuspension(deps, operatorActor, opts.id));
      const note = p.active ? '' : ' It is still switched off by its merchant.';
      print(projectJson(p), `Project ${p.id}: suspension lifted.${note}`);
    });

  project
    .command('fee')
    .description('Set the fee: clamp(floor(amountFinal × bps / 10,000), min, max)')
    .requiredOption('--id <projectId>', 'project id')
    .requiredOption('--bps <n>', 'fee in basis points of amountFinal', integer)
    .requiredOption('--min <rials>', 'minimum fee', rials)
    .requiredOption('--max <rials>', 'maximum fee', rials)
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts & { bps: number; min: string; max: string }) => {
      const p = await withDeps((deps) =>
        setProjectFee(deps, operatorActor, { projectId: opts.id, bps: opts.bps, min: BigInt(opts.min), max: BigInt(opts.max) }),
      );
      print({ projectId: p.id, feeBps: p.feeBps, feeMin: p.feeMin, feeMax: p.feeMax }, `Project ${p.id}: fee ${p.feeBps} bps, min ${p.feeMin}, max ${p.feeMax} rials`);
    });

  project
    .command('list')
    .description('List projects, newest first')
    .option('--merchant <merchantId>', "only this merchant's projects")
    .option('--json', 'print one JSON object')
    .action(async (opts: { merchant?: string }) => {
      const rows = await withDeps((deps) => listProjects(deps, operatorActor, { merchantId: opts.merchant }));
      print({ items: rows.map(projectJson) }, rows.length ? rows.map(projectLine).join('\n') : 'No projects.');
    });

  project
    .command('show')
    .description('Show one project with its key prefixes and counts')
    .requiredOption('--id <projectId>', 'project id')
    .option('--json', 'print one JSON object')
    .action(async (opts: IdOpts) => {
      const p = await withDeps((deps) => showProject(deps, operatorActor, opts.id));
      const apiKeys = p.apiKeys.map((k) => ({ prefix: k.keyPrefix, createdAt: k.createdAt, revoked: k.revokedAt !== null }));
      print(
        { ...projectJson(p), apiKeys, counts: p._count },
        [
          projectLine(p),
          `  fee ${p.feeBps} bps, min ${p.feeMin}, max ${p.feeMax} rials; ${p._count.cards} cards, ${p._count.links} links, ${p._count.payments} payments`,
          ...apiKeys.map((k) => `  key ${k.prefix}…  ${k.revoked ? 'revoked' : 'live'}`),
        ].join('\n'),
      );
    });
}
