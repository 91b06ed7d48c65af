/**
 * The twin's API reference at /api/docs: Redoc (the copy the Redocly CLI ships, so it works offline)
 * rendering /api/openapi.json. The twin serves it for people building against the API; a deployed stage
 * has no such route (the document itself is GET /api/openapi.json there too).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../paths';
import type { GatewayExtra } from './gateway';

const REDOC_SCRIPT = join(PROJECT_ROOT, 'node_modules', '@redocly', 'cli', 'lib', 'chunks', 'redoc.standalone.js');

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Investigation Analysis Service — API reference</title>
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <div id="redoc"></div>
  <script type="module">
    import { init } from '/api/docs/redoc.standalone.js';
    init('/api/openapi.json', { hideDownloadButtons: false }, document.getElementById('redoc'));
  </script>
</body>
</html>
`;

export const apiDocs = (): Record<string, () => GatewayExtra> => {
  let script: Buffer | undefined;
  return {
    '/api/docs': () => ({ contentType: 'text/html; charset=utf-8', body: PAGE }),
    '/api/docs/redoc.standalone.js': () => ({
      contentType: 'text/javascript; charset=utf-8',
      body: (script ??= readFileSync(REDOC_SCRIPT)),
    }),
  };
};
