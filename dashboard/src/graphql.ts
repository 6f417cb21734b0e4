import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './generated/graphql-env.js';

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
