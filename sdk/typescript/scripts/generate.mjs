#!/usr/bin/env node
// Regenerates src/openapi-types.ts from the service's OpenAPI document with openapi-typescript.
//
//   node scripts/generate.mjs                                   # from $GATEWAY_OPENAPI_URL, else http://localhost:3000/openapi.json
//   node scripts/generate.mjs --input https://pay.example.com/openapi.json
//   node scripts/generate.mjs --input ./openapi.json --output /tmp/openapi-types.ts
//
// The root test suite (test/sdk/typescript.test.ts) runs this against a running service and fails
// when the committed file differs from what it prints, so the types never drift from the API.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const input = option('--input') ?? process.env.GATEWAY_OPENAPI_URL ?? 'http://localhost:3000/openapi.json';
const output = option('--output') ?? path.join(here, '..', 'src', 'openapi-types.ts');

async function load(source) {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

const document = await load(input);
// The document's `externalDocs.url` names the host that served it; nothing generated depends on it.
const ast = await openapiTS(document, {
  // Responses describe what the service sends today; the client must accept more (added fields,
  // new enum values), so no `additionalProperties: false` is turned into a closed type here.
  additionalProperties: false,
  alphabetize: false,
  exportType: false,
});
const banner = `${COMMENT_HEADER}// Generated from the service's OpenAPI document (info.version ${document.info?.version ?? '?'}) by\n// scripts/generate.mjs. Do not edit by hand: run \`npm run generate\` in sdk/typescript.\n\n`;
await writeFile(output, banner + astToString(ast));
console.log(`wrote ${path.relative(process.cwd(), output)}`);
