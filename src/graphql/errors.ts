import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { toAppError } from '../error-translator.js';
import { errorCatalog, type AppError, type ErrorCode } from '../errors.js';
import { answerLevel, type Logger } from '../logger.js';

type HttpExtension = { status?: number; headers?: Record<string, string>; spec?: boolean };

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
 * `extensions` of a catalog error. Most are field errors of a 200 response, as GraphQL over HTTP
 * wants; a refusal of the whole request (rate limit) carries its HTTP status and Retry-After, which
 * Yoga applies to the response and strips from the body.
 */
export function catalogExtensions(err: AppError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: err.code, details: err.details };
  if (err.code === 'rate_limited') {
    const retry = err.details.retryAfterSeconds;
    extensions.http = { status: 429, headers: typeof retry === 'number' ? { 'Retry-After': String(retry) } : {} } satisfies HttpExtension;
  }
  return extensions;
}

/**
 * Yoga's error mask: errors GraphQL itself raised about the request (syntax, validation, variable
 * coercion: no resolver path, no foreign cause) pass to `useCatalogErrorCodes`; everything else goes
 * through the one translator shared with REST, so input never surfaces as `internal_error`.
 */
export function createMaskError(log: Logger) {
  return (error: unknown): Error => {
    const graphqlError = error instanceof GraphQLError ? error : undefined;
    const original = graphqlError ? graphqlError.originalError : error;
    if (graphqlError && (!original || original instanceof GraphQLError)) return graphqlError;
    // A scalar's parseValue failing while variables are coerced: the caller's input, not a bug.
    const systemError = typeof original === 'object' && original !== null && 'code' in original;
    if (graphqlError && !graphqlError.path && !systemError) return graphqlError;
    const appError = toAppError(original, log);
    const base = graphqlError ?? new GraphQLError(appError.message);
    return withExtensions(base, appError.message, catalogExtensions(appError));
  };
}

/**
 * Yoga's `logging.error`, which it calls with every error the mask replaced. An error the catalog
 * answers (invalid_state, no_card_available, …) is logged at its answer's level, without a stack,
 * as REST logs it; one that became internal_error was logged with its stack by the translator
 * inside the mask, so it is only marked here, at error level.
 */
export function logYogaError(log: Logger) {
  return (...args: unknown[]): void => {
    const [error] = args;
    if (args.length !== 1 || !(error instanceof Error)) {
      log.error({ yoga: args }, 'graphql');
      return;
    }
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    const answer = toAppError(original);
    const path = error instanceof GraphQLError ? error.path : undefined;
    log[answerLevel(answer.status)]({ code: answer.code, path }, 'graphql error answered');
  };
}

function isCatalogCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in errorCatalog;
}

/** The code of a request-level error Yoga raised, by the HTTP status it chose. */
function codeOfRequestError(err: GraphQLError, http: HttpExtension | undefined): ErrorCode {
  if (http?.status === 405) return 'method_not_allowed';
  if (http?.status === 413) return 'payload_too_large';
  if (http?.status === 415) return 'unsupported_media_type';
  if (err.message.startsWith('POST body sent invalid JSON')) return 'invalid_json';
  return 'invalid_request';
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * Parse, validation, coercion, armor (depth/cost/alias/tokens) and transport errors carry no
 * catalog code; they are the caller's mistake, so they get one (`invalid_request` mostly): every
 * error carries its code (docs/integration.md "7. Errors"). A malformed request (a body that is not
 * JSON) keeps its 400 even under `Accept: application/json`: it is not a GraphQL-over-HTTP request
 * at all. In production the "Did you mean" hints, which map the schema for a stranger, are cut.
 */
export function toCatalogError(e: GraphQLError, production: boolean): GraphQLError {
  const message = production ? e.message.replace(SUGGESTION, '') : e.message;
  if (isCatalogCode(e.extensions?.code)) return message === e.message ? e : withExtensions(e, message, e.extensions);
  const { originalError: _internal, http, ...extensions } = (e.extensions ?? {}) as Record<string, unknown> & { http?: HttpExtension };
  const requestLevel = !e.locations?.length && !e.path;
  const httpOut = http && requestLevel ? { ...http, spec: false } : http;
  return withExtensions(e, message, {
    ...extensions,
    code: codeOfRequestError(e, http),
    details: extensions.details ?? {},
    ...(httpOut ? { http: httpOut } : {}),
  });
}

export function useCatalogErrorCodes(production: boolean): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length) return;
      const errors = result.errors.map((e) =>
        toCatalogError(e instanceof GraphQLError ? e : new GraphQLError(String((e as { message?: unknown }).message)), production),
      );
      setResult({ ...result, errors });
    },
  };
}
