import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { fromRoot } from '../paths.js';

/** `/favicon.ico`, served locally (browsers ask for it on every page; a 404 is a console error). */
export function faviconRoute(): RequestHandler {
  const icon = readFileSync(fromRoot('src/checkout-page/favicon.ico'));
  return (_req, res) => {
    res.type('image/x-icon').setHeader('Cache-Control', 'public, max-age=86400');
    res.send(icon);
  };
}
