import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../../src/graphql/print.js';

describe('schema.graphql', () => {
  it('is the printed Pothos schema (run `npm run schema:print` when this fails)', async () => {
    expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });
});
