/**
 * The API's own description (SPEC A1): `GET /api/openapi.json`, the OpenAPI 3.1 document
 * generated from the zod schemas that validate the requests, and `GET /api/docs`, a
 * reference page (Swagger UI) served from the package, no CDN. The page and its two assets
 * hold no data and are served without a token; the page asks for the admin token and sends
 * it with every request it makes, the document's fetch included.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errorResponses, jsonResponse } from './api-schemas.js';

/** Paths under the API's base that answer without a token (static, no data). */
export const PUBLIC_DOCS_PATHS: readonly string[] = Object.freeze([
  '/docs',
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-bundle.js',
  '/docs/init.js',
]);

const DOCUMENT_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'boternity control API',
    version: '0.1.0',
    description:
      'Supervise MCP servers and read what they offer. Every route needs `Authorization: Bearer <admin token>`; ' +
      'errors have one shape, `{"error":{"code","message","issues"?}}`.',
  },
  security: [{ bearer: [] }],
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>boternity API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<style>body{margin:0;font-family:sans-serif} form{padding:12px;background:#f4f4f4} input{width:28em}</style>
</head>
<body>
<form id="token-form"><label>Admin token <input id="token" type="password" autocomplete="off"></label> <button>Show the API</button></form>
<div id="ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

// The token stays in this tab (sessionStorage) and goes only to this origin.
const INIT = `(function () {
  var form = document.getElementById('token-form');
  var input = document.getElementById('token');
  function show(token) {
    window.SwaggerUIBundle({
      url: '/api/openapi.json',
      dom_id: '#ui',
      requestInterceptor: function (request) {
        request.headers.Authorization = 'Bearer ' + token;
        return request;
      },
    });
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem('boternity-token', input.value);
    show(input.value);
  });
  var saved = sessionStorage.getItem('boternity-token');
  if (saved) show(saved);
})();
`;

const openapiRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  tags: ['docs'],
  summary: 'This document (OpenAPI 3.1)',
  responses: { 200: jsonResponse('The OpenAPI document', z.record(z.string(), z.unknown())), ...errorResponses() },
});

const docsRoute = createRoute({
  method: 'get',
  path: '/docs',
  tags: ['docs'],
  summary: 'A browsable reference of this API (no token needed for the page itself)',
  security: [],
  responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
});

/** The reference page's files from `swagger-ui-dist`, with their media types. */
const ASSETS = [
  ['swagger-ui.css', 'text/css'],
  ['swagger-ui-bundle.js', 'text/javascript'],
] as const;

const assetRoute = (file: string, type: string) =>
  createRoute({
    method: 'get',
    path: `/docs/${file}`,
    tags: ['docs'],
    summary: `A file of the reference page (${file})`,
    security: [],
    responses: { 200: { description: file, content: { [type]: { schema: z.string() } } } },
  });

/** Register `/openapi.json` and `/docs` on the API app (call after every other route). */
export function registerDocsRoutes(api: OpenAPIHono): void {
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'The admin token (`$BOTERNITY_HOME/admin-token` or `BOTERNITY_ADMIN_TOKEN`)',
  });
  let document: Record<string, unknown> | null = null;
  api.openapi(openapiRoute, (c) => {
    document ??= api.getOpenAPI31Document(DOCUMENT_INFO) as unknown as Record<string, unknown>;
    return c.json(document, 200);
  });
  api.openapi(docsRoute, (c) => c.html(PAGE, 200));
  for (const [file, type] of ASSETS) {
    let body: Buffer | null = null;
    api.openapi(assetRoute(file, type), (c) => {
      body ??= readFileSync(join(swaggerUiDir(), file));
      return c.body(new Uint8Array(body), 200, {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'max-age=3600',
      });
    });
  }
  api.openapi(assetRoute('init.js', 'text/javascript'), (c) =>
    c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
}

/** Where the installed `swagger-ui-dist` package is. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}
