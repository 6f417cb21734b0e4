import { defineConfig } from 'prisma/config';

// Prisma's CLI tries to download its schema engine before `generate`, and these machines cannot
// download. Generation does not need the engine; migrations run through our own runner
// (src/db/migrate.ts), so the CLI is pointed at a binary that is never used.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
