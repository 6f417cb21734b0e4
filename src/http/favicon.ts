import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';

/** `/favicon.ico`, served locally (browsers ask for it on every page; a 404 is a console error). */
export function faviconRoute(): RequestHandler {
  const icon = readFileSync(new URL('../checkout-page/favicon.ico', import.meta.url));
  return (_req, res) => {
    res.type('image/x-icon').setHeader('Cache-Control', 'public, max-age=86400');
    res.send(icon);
  };
}
