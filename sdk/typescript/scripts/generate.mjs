#!/usr/bin/env node
// Regenerates src/openapi-types.ts from the service's OpenAPI document with openapi-typescript
// (its shop part: the operations tagged Payments and what they reference).
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

/**
 * The shop's part of the document: the operations tagged `Payments` (what a project key does:
 * payments, verify, reject, refunds) and the components they reach. The rest (the payer's checkout,
 * phones, the dashboard's session, merchant exports) is not this SDK's, and its changes do not
 * make these types stale.
 */
const SDK_TAGS = new Set(['Payments']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function shopPart(doc) {
  const paths = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([key, op]) => !METHODS.includes(key) || (op.tags ?? []).some((t) => SDK_TAGS.has(t))),
    );
    if (METHODS.some((m) => m in kept)) paths[path] = kept;
  }
  const reached = new Set();
  const walk = (value) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== 'object' || value === null) return;
    if (typeof value.$ref === 'string' && value.$ref.startsWith('#/components/') && !reached.has(value.$ref)) {
      reached.add(value.$ref);
      const [, , kind, name] = value.$ref.split('/');
      walk(doc.components?.[kind]?.[name]);
    }
    Object.values(value).forEach(walk);
  };
  walk(paths);
  const components = {};
  for (const [kind, entries] of Object.entries(doc.components ?? {})) {
    const keep = kind === 'securitySchemes' ? entries : Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`#/components/${kind}/${name}`)));
    if (Object.keys(keep).length) components[kind] = keep;
  }
  return { ...doc, tags: (doc.tags ?? []).filter((t) => SDK_TAGS.has(t.name)), paths, components };
}

const document = shopPart(await load(input));
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
