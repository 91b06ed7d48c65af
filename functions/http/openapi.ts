/** GET /api/openapi.json — the API contract, generated from the manifest and the zod schemas. */
import { openApiDocument } from '../../layers/core/http/openapi';
import { httpRoute } from '../../layers/core/http/route';

const document = openApiDocument();

export const handler = httpRoute(async () => ({ body: document, headers: { 'cache-control': 'public, max-age=300' } }));
