/** The OpenAPI 3.1 document: every manifest route, with the zod contracts where a route has them. */
import * as z from 'zod';
import { httpRoutes, type Access } from '../../../lib/manifest';
import { isExempt } from '../ratelimit/limits';
import { contractOf, errorSchema } from './contracts';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const security: Record<Access, unknown[]> = {
  public: [],
  investigator: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  cron: [{ cronSecret: [] }, { bearer: [] }],
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: jsonSchema(errorSchema) } } });

export const openApiDocument = () => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of httpRoutes()) {
    const contract = contractOf(route.fn.id);
    const parameters = [
      ...Object.entries(contract.params?.shape ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema: jsonSchema(schema as z.ZodType) })),
      ...Object.entries(contract.query?.shape ?? {}).map(([name, schema]) => ({
        name, in: 'query', required: !(schema as z.ZodType).safeParse(undefined).success, schema: jsonSchema(schema as z.ZodType),
      })),
    ];
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.fn.id,
      summary: route.fn.description,
      'x-access': route.access,
      security: security[route.access],
      ...(parameters.length > 0 && { parameters }),
      ...(contract.body && { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(contract.body) } } } }),
      responses: {
        [contract.status ?? 200]: {
          description: 'Success',
          ...(contract.response && { content: { 'application/json': { schema: jsonSchema(contract.response) } } }),
        },
        ...(contract.params || contract.query || contract.body ? { 400: errorResponse('Invalid input; nothing changed') } : {}),
        ...(route.access !== 'public' && { 401: errorResponse('Missing or invalid token'), 403: errorResponse('Not allowed for this caller') }),
        ...(!isExempt(route.fn) && { 429: errorResponse('Rate limit reached; retry after the Retry-After header\'s seconds') }),
        ...Object.fromEntries(Object.entries(contract.errors ?? {}).map(([status, description]) =>
          [status, Number(status) < 400 ? { description } : errorResponse(description)])),
        ...(route.fn.id === 'health' && { 503: { description: 'A component is unavailable', content: { 'application/json': { schema: jsonSchema(contract.response!) } } } }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Investigation Analysis Service',
      version: '0.1.0',
      description: 'AI analyses of investigation evidence. Errors have the shape { error: { code, message, details? } }.',
    },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Cognito access token (the twin: npm run token)' },
        cronSecret: { type: 'http', scheme: 'bearer', description: 'The scheduler secret, for /api/admin/cron/* only' },
      },
    },
  };
};
