import { printSchema } from 'graphql';
import { fromRoot } from '../paths.js';
import { schema } from './schema/index.js';

export const SCHEMA_FILE = fromRoot('schema.graphql');

const HEADER = '# Printed from the Pothos schema by `npm run schema:print`; do not edit by hand.\n\n';

/** The sorted SDL committed as schema.graphql. */
export function printedSchema(): string {
  return `${HEADER}${printSchema(schema)}\n`;
}
