import { readFile, writeFile } from 'node:fs/promises';
import { printedSchema, SCHEMA_FILE } from '../src/graphql/print.js';

const printed = printedSchema();
if (process.argv.includes('--check')) {
  const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
  if (committed !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit the result.');
    process.exit(1);
  }
  console.log('schema.graphql is up to date.');
} else {
  await writeFile(SCHEMA_FILE, printed);
  console.log(`Wrote ${SCHEMA_FILE}`);
}
