import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clindoc local API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });`;

/** Browsable API docs (Swagger UI from the swagger-ui-dist package, served locally). */
export function docsRouter(): Router {
  const router = express.Router();
  // The package's folder only: its main module would also load the 1.5 MB browser bundles into
  // Node, a quarter of a second of every start.
  const assets = dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/docs', (_req, res) => void res.type('html').send(PAGE));
  router.get('/docs/init.js', (_req, res) => void res.type('application/javascript').send(INIT));
  router.use('/docs/assets', express.static(assets, { index: false }));
  return router;
}
