import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness.js';

type Column = { table: string; column: string; nullable: boolean };

/**
 * Reads the models out of prisma/schema.prisma: table (@@map), scalar columns (@map or the field
 * name) and nullability (`?`). Relation fields (a model type) have no column.
 */
async function prismaColumns(): Promise<Column[]> {
  const text = await readFile(path.resolve('prisma/schema.prisma'), 'utf8');
  const models = [...text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]));
  const columns: Column[] = [];
  for (const [, , body] of models) {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1];
    if (!table) throw new Error('every model maps to a snake_case table');
    for (const line of body!.split('\n')) {
      const m = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!m || line.trim().startsWith('//') || line.trim().startsWith('@@')) continue;
      const [, field, type, list, optional, rest] = m;
      if (modelNames.has(type!)) continue;
      const column = /@map\("([^"]+)"\)/.exec(rest!)?.[1] ?? field!;
      columns.push({ table, column, nullable: Boolean(optional) && !list });
    }
  }
  return columns;
}

describe('schema drift', () => {
  it('the migrated database has exactly the tables, columns and nullability of the Prisma schema', async () => {
    const client = new pg.Client({ connectionString: await createTestDatabase() });
    await client.connect();
    const res = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `select table_name, column_name, is_nullable from information_schema.columns
       where table_schema = 'public' and table_name <> '_prisma_migrations'`,
    );
    await client.end();
    const key = (c: Column) => `${c.table}.${c.column}${c.nullable ? '?' : ''}`;
    const inDb = res.rows.map((r) => key({ table: r.table_name, column: r.column_name, nullable: r.is_nullable === 'YES' })).sort();
    const inPrisma = (await prismaColumns()).map(key).sort();
    expect(inPrisma.length).toBeGreaterThan(100);
    expect(inDb).toEqual(inPrisma);
  });
});
