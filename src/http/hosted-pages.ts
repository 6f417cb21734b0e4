import type { NextFunction, Request, Response } from 'express';
import type { Deps } from '../domain/deps.js';
import { renderMessagePage, renderNotFoundPage } from '../checkout-page/shell.js';
import { isAppError } from '../errors.js';

/** Own assets only, plus https images for a project's logo. */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function pageHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CHECKOUT_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-store');
  res.send(html);
}

/** A page read counts against the payer's per-IP budget, as the JSON read behind it does. */
export async function consumePublicBudget(deps: Deps, ip: string | undefined): Promise<void> {
  await deps.limits?.consume('ip', ip ?? 'unknown');
}

/** Domain refusals as pages: unknown → the Persian 404, over the limit → a Persian 429. */
export function pageError(res: Response, next: NextFunction, err: unknown, notFoundText?: string): void {
  if (isAppError(err) && err.code === 'not_found') return sendHtml(res, 404, renderNotFoundPage(notFoundText));
  if (isAppError(err) && err.code === 'rate_limited') {
    return sendHtml(res, 429, renderMessagePage('کمی صبر کنید', 'درخواست‌ها زیاد است؛ چند لحظه بعد دوباره تلاش کنید.'));
  }
  next(err);
}
