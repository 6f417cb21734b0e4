import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * `npm run dashboard:build`: gql.tada's introspection from schema.graphql, then Vite's production
 * build into dashboard/dist. Runs from `postinstall`, so `npm install && npm start` serves a built
 * dashboard. With `--if-present` (postinstall) an install without devDependencies
 * (`npm ci --omit=dev`) skips the build with a note instead of failing: such an image copies a
 * dist/ built in its build stage.
 */
const require = createRequire(import.meta.url);
const ifPresent = process.argv.includes('--if-present');

function viteInstalled(): boolean {
  try {
    require.resolve('vite/package.json');
    return true;
  } catch {
    return false;
  }
}

if (ifPresent && !viteInstalled()) {
  const built = existsSync(new URL('../dist/index.html', import.meta.url));
  console.log(`dashboard: vite is not installed (devDependencies omitted); ${built ? 'keeping the existing dashboard/dist' : 'no dashboard/dist: /dashboard answers 503 until `npm run dashboard:build` runs'}`);
} else {
  // Imported here: gql.tada (a devDependency) is not installed when the build is skipped.
  const { writeIntrospection } = await import('./introspect.js');
  writeIntrospection();
  const { build } = await import('vite');
  const started = Date.now();
  await build({ configFile: new URL('../vite.config.ts', import.meta.url).pathname });
  console.log(`dashboard: built into dashboard/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
