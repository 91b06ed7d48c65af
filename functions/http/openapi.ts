/** GET /api/openapi.json — the API contract, generated from the manifest and the zod schemas. */
import { openapiRoute } from '#core/http/contracts';
import { openApiDocument } from '#core/http/openapi';
import { route } from '#core/http/route';

const document = openApiDocument();

export const handler = route(openapiRoute, async () => ({ body: document, headers: { 'cache-control': 'public, max-age=300' } }));
