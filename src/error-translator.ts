import { dbErrorToAppError, sqlState } from './db/errors.js';
import { AppError, isAppError } from './errors.js';
import type { Logger } from './logger.js';

type BodyParserError = { type?: string; status?: number; statusCode?: number; expose?: boolean };

/** Errors raised by body-parser and Express itself carry a `type` or an HTTP status. */
function httpErrorToAppError(err: unknown): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as BodyParserError;
  if (e.type === 'entity.too.large') return new AppError('payload_too_large');
  if (e.type === 'entity.parse.failed' || e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.type === 'entity.verify.failed') {
    return new AppError('invalid_json');
  }
  if (e.type === 'request.aborted' || e.type === 'request.size.invalid' || e.type === 'stream.encoding.set') {
    return new AppError('invalid_request', 'The request body was cut off or malformed.');
  }
  // Only errors made for HTTP (http-errors sets `expose`) say something about the request itself.
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || e.expose === false) return undefined;
  if (status === 404) return new AppError('not_found');
  if (status === 405) return new AppError('method_not_allowed');
  if (status === 413) return new AppError('payload_too_large');
  if (status === 415) return new AppError('unsupported_media_type');
  if (status === 431) return new AppError('headers_too_large');
  if (status >= 400 && status < 500) return new AppError('invalid_request', 'The request URL or headers are malformed.');
  return undefined;
}

/** Prisma's code (P20xx) or body-parser's type, for the log. */
function errorCodeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, type } = err as { code?: unknown; type?: unknown };
  return typeof code === 'string' ? code : typeof type === 'string' ? type : undefined;
}

/**
 * The one translator from anything thrown to the catalog, for both doors: AppErrors pass, database
 * and HTTP-parsing errors a caller can cause get their catalog code, and only what is left (a bug,
 * an outage) is logged and becomes `internal_error`, with nothing internal in it.
 */
export function toAppError(err: unknown, log?: Logger): AppError {
  if (isAppError(err)) return err;
  const known = dbErrorToAppError(err) ?? httpErrorToAppError(err);
  if (known) {
    // Worth a look: input reached the database or the parser without being refused earlier. Only
    // the codes are logged: a Prisma message quotes the query's arguments (tokens among them).
    log?.warn({ errorCode: errorCodeOf(err), sqlState: sqlState(err), code: known.code }, 'error translated to the catalog');
    return known;
  }
  log?.error({ err }, 'unexpected error');
  return new AppError('internal_error');
}
