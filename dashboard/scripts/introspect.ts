import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { outputIntrospectionFile } from '@gql.tada/internal';
import { buildSchema, introspectionFromSchema } from 'graphql';

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
  return target.pathname;
}

if (import.meta.url === `file://${process.argv[1]}`) writeIntrospection();
