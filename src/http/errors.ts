import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, errorBody, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';

type BodyParserError = { type?: string; status?: number; statusCode?: number };

/** Maps anything thrown to the contract's envelope; nothing internal leaks. */
export function toAppError(err: unknown, log: Logger): AppError {
  if (isAppError(err)) return err;
  const bp = err as BodyParserError;
  if (bp?.type === 'entity.too.large') return new AppError('payload_too_large');
  if (bp?.type === 'entity.parse.failed' || bp?.type === 'encoding.unsupported' || bp?.type === 'charset.unsupported') {
    return new AppError('invalid_json');
  }
  if (bp?.type === 'request.aborted') return new AppError('invalid_request', 'The request was aborted.');
  // Errors Express raises itself (a path that is not valid percent-encoding, say) carry their status.
  const status = bp?.status ?? bp?.statusCode;
  if (status === 404) return new AppError('not_found');
  if (status === 413) return new AppError('payload_too_large');
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError('invalid_request', 'The request URL or headers are malformed.');
  log.error({ err }, 'unhandled error');
  return new AppError('internal_error');
}

export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err, (req as { log?: Logger }).log ?? log);
    if (res.headersSent) return;
    if (appError.code === 'rate_limited' && typeof appError.details.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
    }
    res.status(appError.status).json(errorBody(appError));
  };
}

export const notFoundMiddleware: RequestHandler = (req, _res, next) => {
  next(new AppError('not_found', `No route for ${req.method} ${req.path}.`));
};
