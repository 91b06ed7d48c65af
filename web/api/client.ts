/**
 * The typed API client for the web app and other TypeScript callers: openapi-fetch over the types
 * openapi-typescript generates from the service's OpenAPI document (`npm run openapi -- client`), so a
 * path, a parameter or a field the document does not have is a compile error. Named shapes are exported
 * by their component names (`Analysis`, `RetrievalChunk`, `ApiError`, …).
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export type * from './schema';

/** A client of the API at `baseUrl` (the twin: http://127.0.0.1:3000), sending the bearer `token()` gives, if any. */
export const apiClient = (baseUrl: string, token?: () => string | undefined) => {
  const client = createClient<paths>({ baseUrl });
  client.use({
    onRequest: ({ request }) => {
      const bearer = token?.();
      if (bearer) request.headers.set('authorization', `Bearer ${bearer}`);
      return request;
    },
  });
  return client;
};
