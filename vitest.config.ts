import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS and ESM builds; Node (and so Pothos, Yoga) loads the CJS one, Vite would
    // pick the ESM one for our files. One copy only, or graphql refuses types "from another realm".
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The pass through PgBouncer (npm run test:pooler) is about the service's database path: it
    // leaves out what that path cannot change, the pages in a browser (the same GraphQL and REST the
    // other files drive), the SDKs' clients, and what touches no database at all (docs/testing.md).
    exclude: process.env.TEST_POOLER
      ? ['**/node_modules/**', 'test/dashboard/**', 'test/checkout/**', 'test/sdk/**', 'test/sms/**', 'test/unit/**', 'test/architecture/**']
      : ['**/node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // Generous: only a failing test ever waits this long, and a loaded CI runner once needed more
    // than 30 s to start a child process (test/support/process.ts bounds each child itself).
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits for something the service or the browser does next (a webhook arriving, a
    // page re-rendering). Its own default (1 s) is a clock claim no test makes; on a loaded runner a
    // correct answer took longer. A poll that can never pass still fails, after 10 s.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    pool: 'forks',
    // Files share their worker's module cache (each still gets its own database, service and
    // clients): importing the service's module graph once per worker rather than once per file took
    // a third off a pass (docs/testing.md). Tests restore what they change (fake timers, env).
    isolate: false,
    // Two cores: two files at a time, each on its own database cloned from a migrated template.
    maxWorkers: 2,
  },
});
