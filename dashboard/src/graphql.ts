import { initGraphQLTada } from 'gql.tada';
import type { introspection, introspection_types } from './generated/graphql-env.js';

/**
 * Every operation of the dashboard is written with this tag: gql.tada checks it against
 * `schema.graphql` (through the generated introspection) and types its result and variables.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  // Fragments are plain shapes here: one app, no component boundaries to guard.
  disableMasking: true;
  scalars: { Amount: string; DateTime: string; JSONObject: Record<string, unknown>; ID: string };
}>();

export type { ResultOf } from 'gql.tada';

/**
 * The values of one of the schema's enums. A map typed `Record<EnumOf<'PaymentStatus'>, string>`
 * must name every value: when the schema gains one, `npm run typecheck` fails until it is labelled.
 */
export type EnumOf<Name extends keyof introspection_types> = introspection_types[Name] extends { enumValues: infer Values } ? Values : never;
