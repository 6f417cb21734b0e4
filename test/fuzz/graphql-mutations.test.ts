import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { expectCatalogCode, FUZZ_RUNS, hostileJson, hostileNumber, hostileString, RowCountGuard } from './support.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;
const known: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000' } });
  shop = await makeShop(app);
  const payment = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
  known.push(payment.id, payment.token, shop.projectId, shop.cardId, '00000000-0000-4000-8000-000000000000', 'https://shop.example.com/r');
});
afterAll(() => app.stop());

/** Values for a GraphQL input type: mostly well-typed with hostile content, sometimes wrong types. */
function valueFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return fc.oneof({ weight: 9, arbitrary: valueFor(type.ofType, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  const nullable = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 5, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(type)) return nullable(fc.array(valueFor(type.ofType, depth + 1), { maxLength: 3 }));
  if (isEnumType(type)) return nullable(fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.name)), hostileString()));
  if (isInputObjectType(type)) {
    if (depth > 2) return fc.constant(null);
    const fields = Object.values(type.getFields());
    const record = fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, depth + 1)])), { requiredKeys: [] });
    return nullable(fc.oneof({ weight: 6, arbitrary: record }, { weight: 1, arbitrary: hostileJson(known) }));
  }
  if (isScalarType(type)) {
    const anything = hostileJson(known);
    switch (type.name) {
      case 'String':
      case 'ID':
        return nullable(fc.oneof({ weight: 6, arbitrary: hostileString(known) }, { weight: 1, arbitrary: anything }));
      case 'Int':
      case 'Float':
        return nullable(fc.oneof({ weight: 6, arbitrary: hostileNumber }, { weight: 1, arbitrary: anything }));
      case 'Boolean':
        return nullable(fc.oneof({ weight: 6, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anything }));
      case 'Amount':
        return nullable(fc.oneof(hostileNumber, fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String), hostileString()));
      case 'DateTime':
        return nullable(fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), hostileString()));
      default:
        return nullable(anything);
    }
  }
  return fc.constant(null);
}

const mutations = Object.values(schema.getMutationType()!.getFields());

function operationOf(name: string, args: readonly GraphQLArgument[]): string {
  const vars = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = getNamedType(schema.getMutationType()!.getFields()[name]!.type).name.length ? '{ __typename }' : '';
  return `mutation Fuzz${vars ? `(${vars})` : ''} { ${name}${call ? `(${call})` : ''} ${selection} }`;
}

describe('property: every GraphQL mutation refuses hostile input with a catalog code and writes nothing', () => {
  it.each(mutations.map((m) => [m.name, m] as const))('%s', async (name, field) => {
    const query = operationOf(name, field.args);
    const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, valueFor(a.type)])), { requiredKeys: [] });
    const credential = fc.constantFrom<string | undefined>(shop.apiKey, shop.merchantKey, undefined);
    const rows = new RowCountGuard(app);
    await fc.assert(
      fc.asyncProperty(variables, credential, async (vars, token) => {
        const before = await rows.before();
        const res = await request(app.baseUrl, 'POST', '/graphql', { token, body: { query, variables: vars } });
        const context = `${name} ${JSON.stringify(vars).slice(0, 300)} → ${res.status} ${res.text.slice(0, 400)}`;
        expect(res.status, context).toBeLessThan(500);
        expect(res.headers.get('content-type'), context).toMatch(/json/);
        for (const error of res.body?.errors ?? []) expectCatalogCode(error.extensions?.code, context);
        const after = await rows.after();
        if (res.body?.errors?.length && !res.body?.data?.[name]) expect(after, context).toEqual(before);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });
});
