import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import { unauthorizedFor } from '../domain/auth/actor.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { GraphQLContext } from './context.js';

type JsonObject = { [key: string]: unknown };

/** The scope names a refused field asked for (`merchant`, `project`), whatever the failure's shape. */
function scopesOf(failure: AuthFailure): string[] {
  if ('failures' in failure) return failure.failures.flatMap(scopesOf);
  return 'scope' in failure ? [failure.scope] : [];
}

/** The refusal of a session cookie that came without x-graphql-yoga-csrf: the response is HTTP 401. */
function csrfRefusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'unauthorized', details: {}, http: { status: 401 } } });
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { merchant: boolean; project: boolean; user: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    Amount: { Input: string | number; Output: bigint | string | number };
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: JsonObject; Output: unknown };
  };
}>({
  plugins: [RelayPlugin, ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Our own Node interface keeps REST's UUIDs as ids (schema/node.ts, docs/decisions.md).
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    defaultConnectionTypeOptions: { description: 'One page of a list (a Relay cursor connection).' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with its cursor.' },
    pageInfoTypeOptions: { description: 'Where a page stands in its list.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.' },
    nodeFieldOptions: { description: 'The item.' },
    cursorFieldOptions: { description: 'An opaque cursor: pass it as `after` (or `before`) to get the next (or previous) page.' },
    pageInfoFieldOptions: { description: 'Where this page stands in the list.' },
    hasNextPageFieldOptions: { description: 'True when items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'True when items come before this page.' },
    startCursorFieldOptions: { description: 'The cursor of the first item of this page.' },
    endCursorFieldOptions: { description: 'The cursor of the last item of this page; pass it as `after` for the next page.' },
    firstArgOptions: { description: 'At most this many items after `after` (default 20, at most 100).' },
    afterArgOptions: { description: 'Start after the item with this cursor.' },
    lastArgOptions: { description: 'At most this many items before `before`.' },
    beforeArgOptions: { description: 'End before the item with this cursor.' },
  },
  scopeAuth: {
    // A dashboard session is a merchant credential: merchant fields resolve for every role, and the
    // domain refuses (403 forbidden) what the role does not allow (src/domain/auth/roles.ts).
    authScopes: (ctx) => ({
      merchant: ctx.actor.kind === 'merchant' || ctx.actor.kind === 'user',
      project: ctx.actor.kind === 'project',
      user: ctx.actor.kind === 'user',
    }),
    // 403s (inactive merchant or project) stand; a session cookie without the CSRF header is 401
    // (HTTP 401 too) saying so; any other 401 names the key kind the field takes.
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (ctx.authError?.details.csrfHeader) return csrfRefusal(ctx.authError.message);
      return ctx.authError && ctx.authError.code !== 'unauthorized' ? ctx.authError : unauthorizedFor(scopesOf(result.failure), 'field');
    },
  },
  prisma: { client: (ctx) => ctx.deps.prisma, dmmf: getDatamodel(), filterConnectionTotalCount: true },
});

function invalid(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'invalid_request' } });
}

builder.scalarType('Amount', {
  description: 'Rials. Accepts an Int or a string of digits (Persian and Arabic-Indic digits too); always returned as a string of digits.',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string') return value;
    throw invalid('Amount must be an integer or a string of digits');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return ast.kind === Kind.INT ? Number(ast.value) : ast.value;
    throw invalid('Amount must be an integer or a string of digits');
  },
});

builder.scalarType('DateTime', {
  description: 'RFC 3339 date-time in UTC with milliseconds, e.g. 2026-11-21T08:43:00.000Z.',
  serialize: (value) => (value instanceof Date ? value : new Date(String(value))).toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw invalid('DateTime must be an RFC 3339 date-time string');
    return date;
  },
});

builder.scalarType('JSONObject', {
  description: 'A JSON object, returned exactly as it was sent.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('must be a JSON object');
    return value as JsonObject;
  },
});

builder.queryType({ description: 'Reads. Most need `Authorization: Bearer <key>`; checkout and paymentLink are public.' });
builder.mutationType({ description: 'Changes. The key each needs is named in its description; the checkout and link mutations are public.' });
