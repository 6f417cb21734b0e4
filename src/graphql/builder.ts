import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import { AppError } from '../errors.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { GraphQLContext } from './context.js';

type JsonObject = { [key: string]: unknown };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { merchant: boolean; project: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    Amount: { Input: string | number; Output: bigint | string | number };
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: JsonObject; Output: unknown };
  };
}>({
  plugins: [RelayPlugin, ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  relay: { clientMutationId: 'omit', cursorType: 'String', nodeQueryOptions: false, nodesQueryOptions: false },
  scopeAuth: {
    authScopes: (ctx) => ({ merchant: ctx.actor.kind === 'merchant', project: ctx.actor.kind === 'project' }),
    unauthorizedError: (_parent, ctx) => ctx.authError ?? new AppError('unauthorized'),
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

builder.queryType({});
builder.mutationType({});
