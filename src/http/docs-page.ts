import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';

/**
 * `GET /docs`: the REST reference, rendered by Swagger UI from the installed `swagger-ui-dist`
 * package (nothing from a CDN) over `/openapi.json`. Scripts and styles are files of this origin;
 * the start-up script is one of them too, so the CSP allows no inline script.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Card-to-card payment gateway</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to a public validator.
const START = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

type Asset = { body: Buffer | string; type: string };

function loadAssets(): Map<string, Asset> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return new Map<string, Asset>([
    ['swagger-ui.css', { body: readFileSync(path.join(dir, 'swagger-ui.css')), type: 'text/css; charset=utf-8' }],
    ['swagger-ui-bundle.js', { body: readFileSync(path.join(dir, 'swagger-ui-bundle.js')), type: 'text/javascript; charset=utf-8' }],
    ['start.js', { body: START, type: 'text/javascript; charset=utf-8' }],
  ]);
}

export function docsPageRoutes(): Router {
  // Read on the first request for them (Swagger UI's bundle is ~1.5 MB), not by every process at start.
  let loaded: Map<string, Asset> | undefined;
  const assetsNow = () => (loaded ??= loadAssets());
  const router = Router();
  router.use('/docs', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.get('/docs', (_req, res) => {
    res.type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
  router.get('/docs/assets/:name', (req, res, next) => {
    const asset = assetsNow().get(req.params.name);
    if (!asset) return next();
    res.type(asset.type).setHeader('Cache-Control', 'no-cache');
    res.send(asset.body);
  });
  return router;
}
