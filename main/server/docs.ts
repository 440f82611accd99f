import express, { type Router } from 'express';
import { createRequire } from 'node:module';

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
  const assets = (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
  router.get('/docs', (_req, res) => void res.type('html').send(PAGE));
  router.get('/docs/init.js', (_req, res) => void res.type('application/javascript').send(INIT));
  router.use('/docs/assets', express.static(assets, { index: false }));
  return router;
}
