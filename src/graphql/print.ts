import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './schema/index.js';

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema.graphql');

const HEADER = '# Printed from the Pothos schema by `npm run schema:print`; do not edit by hand.\n\n';

/** The sorted SDL committed as schema.graphql. */
export function printedSchema(): string {
  return `${HEADER}${printSchema(schema)}\n`;
}
