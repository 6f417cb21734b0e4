import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { outputIntrospectionFile } from '@gql.tada/internal';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/event-types.js';
import { errorCatalog } from '../../src/errors.js';
import { banks } from '../../src/domain/cards/banks.js';
import { bankSmsParsers } from '../../src/domain/sms/registry.js';

/**
 * The dashboard's operations are typed by gql.tada from the server's printed schema: this writes
 * gql.tada's introspection output from `schema.graphql`, so `tsc -p dashboard` fails when a
 * schema change breaks an operation (a removed field, a renamed argument, a changed type).
 */
const root = new URL('../../', import.meta.url);
const target = new URL('dashboard/src/generated/graphql-env.d.ts', root);

export function writeIntrospection(): string {
  const sdl = readFileSync(new URL('schema.graphql', root), 'utf8');
  const introspection = introspectionFromSchema(buildSchema(sdl), { descriptions: false });
  mkdirSync(new URL('.', target), { recursive: true });
  writeFileSync(target, outputIntrospectionFile(introspection, { fileType: '.d.ts', shouldPreprocess: true }));
  writeServerLists();
  return target.pathname;
}

const serverListsTarget = new URL('dashboard/src/generated/server-lists.d.ts', root);

/**
 * Two closed lists reach the dashboard as plain strings: webhook event types (a GraphQL enum value
 * cannot hold the dot of `payment.confirmed`, and the API sends them as webhooks do) and error codes
 * (`extensions.code`). Their unions are written here from the server's one list of each
 * (src/domain/webhooks/event-types.ts, the catalog in src/errors.ts): a map typed
 * `Record<WebhookEventType, string>` fails `tsc -p dashboard` when the server gains a value.
 */
function writeServerLists(): void {
  const union = (values: readonly string[]) => values.map((v) => `'${v}'`).join(' | ');
  writeFileSync(
    serverListsTarget,
    [
      '/* Written by dashboard/scripts/introspect.ts from the server\'s lists. */',
      `export type WebhookEventType = ${union(WEBHOOK_EVENT_TYPES)};`,
      `export type ErrorCode = ${union(Object.keys(errorCatalog))};`,
      `export type BankCode = ${union(Object.keys(banks))};`,
      '',
    ].join('\n'),
  );
  // The banks a card may be of, with the Persian name the payer sees and the sender lines each
  // bank's SMS are known to come from (the card form offers them for `smsSender`).
  const list = Object.entries(banks).map(([code, name]) => ({ code, name, senders: [...(bankSmsParsers.find((p) => p.bankCode === code)?.senders ?? [])] }));
  writeFileSync(
    banksTarget,
    [
      "/* Written by dashboard/scripts/introspect.ts from src/domain/cards/banks.ts and the SMS parsers' sender lines. */",
      `export const BANKS: readonly { code: string; name: string; senders: readonly string[] }[] = ${JSON.stringify(list)};`,
      '',
    ].join('\n'),
  );
}

const banksTarget = new URL('dashboard/src/generated/banks.ts', root);

if (import.meta.url === `file://${process.argv[1]}`) writeIntrospection();
