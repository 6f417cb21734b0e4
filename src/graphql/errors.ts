import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError, errorCatalog } from '../errors.js';
import type { Logger } from '../logger.js';

function withExtensions(error: GraphQLError, message: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions,
  });
}

/**
 * Yoga's error mask: an AppError keeps its code and details (as `extensions.code`/`details`);
 * anything unexpected is logged and reported as `internal_error` with no internals.
 */
export function createMaskError(log: Logger) {
  return (error: unknown): Error => {
    const graphqlError = error instanceof GraphQLError ? error : undefined;
    const original = graphqlError ? graphqlError.originalError : error;
    if (original instanceof AppError) {
      const base = graphqlError ?? new GraphQLError(original.message);
      return withExtensions(base, original.message, { code: original.code, details: original.details });
    }
    if (graphqlError && (!original || original instanceof GraphQLError)) return graphqlError;
    log.error({ err: original }, 'unexpected error in GraphQL resolver');
    const base = graphqlError ?? new GraphQLError('internal');
    return withExtensions(base, 'Something went wrong on our side.', { code: 'internal_error', details: {} });
  };
}

function isCatalogCode(code: unknown): boolean {
  return typeof code === 'string' && code in errorCatalog;
}

/**
 * Parse, validation, coercion and armor (depth/cost/alias) errors carry no catalog code; they are
 * the caller's mistake, so they become `invalid_request`, as the contract asks.
 */
export function useCatalogErrorCodes(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length) return;
      const errors = result.errors.map((e) => {
        const err = e instanceof GraphQLError ? e : new GraphQLError(String((e as { message?: unknown }).message));
        if (isCatalogCode(err.extensions?.code)) return err;
        const { originalError: _internal, ...extensions } = (err.extensions ?? {}) as Record<string, unknown>;
        return withExtensions(err, err.message, { ...extensions, code: 'invalid_request', details: extensions.details ?? {} });
      });
      setResult({ ...result, errors });
    },
  };
}
