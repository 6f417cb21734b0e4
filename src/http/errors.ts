import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { toAppError } from '../error-translator.js';
import { AppError, errorBody } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * Writes the API's error envelope (docs/integration.md "7. Errors"), with the headers some errors
 * promise: Retry-After for any that says when to come back (`rate_limited`, `unavailable`), Allow
 * for `method_not_allowed`.
 */
export function sendError(res: Response, appError: AppError): void {
  const { retryAfterSeconds, allow } = appError.details;
  if (typeof retryAfterSeconds === 'number') res.setHeader('Retry-After', String(retryAfterSeconds));
  if (appError.code === 'method_not_allowed' && Array.isArray(allow)) res.setHeader('Allow', allow.join(', '));
  res.status(appError.status).json(errorBody(appError));
}

/** Maps anything thrown to the API's error envelope; nothing internal leaks. */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err, (req as { log?: Logger }).log ?? log);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, appError);
  };
}

export const notFoundMiddleware: RequestHandler = (req, _res, next) => {
  next(new AppError('not_found', `No route for ${req.method} ${req.path}.`));
};
