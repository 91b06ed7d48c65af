/**
 * The OpenAPI 3.1 document: every manifest route, with its zod contract. Shapes become named components
 * (`#/components/schemas/…`), so a client generator gives them names: the shared ones by the names below,
 * every other request and response body after its operation (`AnalysisCreateRequest`, …). Each operation
 * lists every status it can answer: the contract's own, the service's common ones (400, 401, 403, 429,
 * 500, 503 when it reads the database) and those API Gateway answers itself, in its own shape
 * (`{"message": …}`), before or instead of the function (401 from the JWT authorizer, 413, 429, 500, 504).
 */
import * as z from 'zod';
import { httpRoutes, type Access, type FunctionSpec, type HttpTrigger } from '#manifest';
import { assessmentSchema } from '#core/analysis/assess';
import { analysisAnswerSchema } from '#core/analysis/answer';
import { analysisRequestSchema } from '#core/analysis/selection';
import { versionSchema } from '#core/admin/prompts';
import { settingsListSchema } from '#core/admin/settings';
import { isExempt } from '#core/ratelimit/limits';
import {
  analysisDetailSchema,
  analysisExportSchema,
  analysisViewSchema,
  claimVerdictSchema,
  coverageAspectSchema,
  retrievalChunkSchema,
} from '#core/analysis/contract';
import { signInResponseSchema } from '#core/auth/contract';
import type { RouteContract } from '#core/contract';
import { investigationSummarySchema } from '#core/evidence/contract';
import { feedbackBodySchema, feedbackRecordSchema } from '#core/feedback/contract';
import { contractFor, errorSchema } from './contracts';
import { OPENAPI_EXAMPLES } from './openapi-examples';
import { ifUsed } from '#core/if-used';

type Route = HttpTrigger & { fn: FunctionSpec };

const SCHEMAS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });

/** The API's own error shape, and API Gateway's, for the answers it gives without the function. */
const gatewayMessageSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({ message: z.string() })
    .describe('API Gateway\'s own answer, before or instead of the function: {"message": "Unauthorized"}, …'),
);

/** Shapes more than one operation shares, or that clients name: their component names. */
const NAMED_RESPONSES: [string, z.ZodType][] = [
  ['ApiError', errorSchema],
  ['GatewayMessage', gatewayMessageSchema],
  ['Analysis', analysisViewSchema],
  ['AnalysisDetail', analysisDetailSchema],
  ['ClaimVerdict', claimVerdictSchema],
  ['CoverageAspect', coverageAspectSchema],
  ['AnalysisExport', analysisExportSchema],
  ['AnalysisAnswer', analysisAnswerSchema],
  ['RetrievalChunk', retrievalChunkSchema],
  ['Investigation', investigationSummarySchema],
  ['FeedbackRecord', feedbackRecordSchema],
  ['Assessment', assessmentSchema],
  ['SignInResult', signInResponseSchema],
  ['PromptVersion', versionSchema],
  ['SettingsList', settingsListSchema],
];
const NAMED_REQUESTS: [string, z.ZodType][] = [
  ['AnalysisRequest', analysisRequestSchema],
  ['FeedbackRequest', feedbackBodySchema],
];

/** Areas of the API (tags), each route in the first whose path test it passes. */
const TAGS: { name: string; description: string; has: (path: string) => boolean }[] = [
  {
    name: 'Schedules',
    description: 'Jobs the scheduler runs (cron secret), which administrators may also start',
    has: (p) => p.startsWith('/api/admin/cron/'),
  },
  {
    name: 'Administration',
    description: 'Prompt templates, settings, users, queues, jobs and audit health (administrators)',
    has: (p) => p.startsWith('/api/admin/'),
  },
  {
    name: 'Authentication',
    description: 'Sign-in steps (password, MFA, passkey, new and forgotten passwords): they answer tokens',
    has: (p) => p.startsWith('/api/auth/'),
  },
  {
    name: 'Feedback',
    description: 'Engagement gates, judgments, regenerations, edits, views and their metrics',
    has: (p) => /\/(feedback|engagement)/.test(p),
  },
  {
    name: 'Analyses',
    description: 'Assess, create, poll and read AI analyses, their quality checks and retrieval',
    has: (p) => p.startsWith('/api/analysis'),
  },
  {
    name: 'Investigations',
    description: "The organization's investigations and their evidence",
    has: (p) => p.startsWith('/api/investigations'),
  },
  {
    name: 'Files',
    description: 'Opening attachments and background documents, and extracting their text',
    has: (p) => /^\/api\/(storage|background)\//.test(p),
  },
  { name: 'Webhooks', description: 'Signed events from outside services', has: (p) => p.startsWith('/api/webhooks/') },
  { name: 'Service', description: 'Health and this document', has: () => true },
];
const tagOf = (path: string) => TAGS.find((tag) => tag.has(path))!.name;

const security: Record<Access, unknown[]> = {
  public: [],
  investigator: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  cron: [{ cronSecret: [] }, { bearer: [] }],
};

const pascal = (id: string) =>
  id
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** Components from a registry: each named shape once, the others referring to it. */
const componentsOf = (named: Map<z.ZodType, string>, io: 'input' | 'output') => {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `${SCHEMAS}${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]));
};

/** Registers a route's body under its shared name, or after the operation; the same schema keeps one name. */
const nameOf = (named: Map<z.ZodType, string>, schema: z.ZodType, fallback: string) => {
  if (!named.has(schema)) named.set(schema, fallback);
  return named.get(schema)!;
};

const inline = (schema: z.ZodType) => {
  const { $schema: _schema, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

const HEADERS = {
  RequestId: {
    description: "The gateway's id of this request: quote it to an operator, who finds its log lines by it",
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'Where the created or accepted resource is read', schema: { type: 'string' } },
} as const;
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const jsonContent = (schema: unknown, example?: unknown) => ({ 'application/json': { schema, ...(example !== undefined && { example }) } });
/** The documents a route may answer instead of JSON (a PDF export), as binary bodies of their media types. */
const documentContent = (contract: RouteContract) =>
  Object.fromEntries(
    Object.entries(contract.documents ?? {}).map(([mediaType, description]) => [
      mediaType,
      { schema: { type: 'string', format: 'binary', description } },
    ]),
  );
const errorAnswer = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { 'x-request-id': header('RequestId'), ...headers },
  content: jsonContent(ref('ApiError')),
});
const gatewayAnswer = (description: string) => ({ description, content: jsonContent(ref('GatewayMessage')) });
/** An answer either the function (the Error shape) or API Gateway (its message) may give. */
const eitherAnswer = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: jsonContent({ oneOf: [ref('ApiError'), ref('GatewayMessage')] }),
});

/** Every status the route can answer, with its body and headers. */
const responsesOf = (route: Route, contract: RouteContract, success: unknown) => {
  const status = contract.status ?? 200;
  const successHeaders = {
    'x-request-id': header('RequestId'),
    ...(contract.location && { Location: { ...header('Location'), description: `Where to read ${contract.location}` } }),
  };
  const limited = !isExempt(route.fn);
  const responses: Record<string, unknown> = {
    [status]: { description: 'Success', headers: successHeaders, ...(success !== undefined && { content: success }) },
  };
  for (const [code, description] of Object.entries(contract.errors ?? {})) {
    const n = Number(code);
    if (n >= 400) responses[code] = errorAnswer(description);
    else if (n >= 300)
      responses[code] = {
        description,
        headers: { 'x-request-id': header('RequestId'), ...(contract.location && { Location: header('Location') }) },
      };
    else
      responses[code] = {
        description,
        headers: { 'x-request-id': header('RequestId') },
        ...(success !== undefined && { content: success }),
      };
  }
  const readsInput = contract.params || contract.query || contract.body || contract.headers;
  if (readsInput && !responses[400]) responses[400] = errorAnswer('Invalid input; nothing changed. `details` lists each bad field by path');
  if (contract.body && !responses[415])
    responses[415] = errorAnswer('The body is not JSON (send Content-Type: application/json); nothing changed');
  if (route.access !== 'public') {
    responses[401] ??= eitherAnswer(
      route.access === 'cron'
        ? 'Neither the cron secret nor a valid administrator token (the Error shape)'
        : 'Missing, expired or invalid token: the JWT authorizer answers {"message":"Unauthorized"} before the function runs',
    );
    responses[403] ??= errorAnswer('Not allowed for this caller');
  }
  responses[413] ??= gatewayAnswer('API Gateway: the request is larger than its payload limit');
  responses[429] ??= limited
    ? eitherAnswer(
        'Too many requests: the service\'s rate limit (the Error shape, with Retry-After) or API Gateway\'s throttle ({"message":"Too Many Requests"})',
        { 'Retry-After': header('RetryAfter') },
      )
    : gatewayAnswer("API Gateway's throttle");
  responses[500] ??= eitherAnswer('An unexpected fault (code internal_error), or API Gateway could not run the function');
  if (route.fn.uses.includes('database')) {
    const databaseDown = 'the database is not answering (code database_unavailable; nothing was changed): retry after Retry-After';
    const own = responses[503] as { description: string } | undefined;
    responses[503] = errorAnswer(own ? `${own.description}; or ${databaseDown}` : databaseDown[0]!.toUpperCase() + databaseDown.slice(1), {
      'Retry-After': header('RetryAfter'),
    });
  }
  responses[504] ??= gatewayAnswer('API Gateway: the function did not answer within the integration timeout');
  return responses;
};

const parametersOf = (contract: RouteContract) =>
  [
    ...Object.entries(contract.params?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema: inline(schema as z.ZodType),
    })),
    ...Object.entries(contract.query?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      schema: inline(schema as z.ZodType),
    })),
    ...Object.entries(contract.headers?.shape ?? {}).map(([name, schema]) => ({
      name: name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()),
      in: 'header',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      schema: inline(schema as z.ZodType),
    })),
  ].map(({ schema, ...parameter }) => {
    // a parameter's description belongs to the parameter (clients show it there)
    const { description, ...rest } = schema as { description?: string };
    return { ...parameter, ...(description && { description }), schema: rest };
  });

export const openApiDocument = () => {
  const outputs = new Map<z.ZodType, string>(NAMED_RESPONSES.map(([name, schema]) => [schema, name]));
  const inputs = new Map<z.ZodType, string>(NAMED_REQUESTS.map(([name, schema]) => [schema, name]));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of httpRoutes()) {
    const contract = contractFor(`${route.method} ${route.path}`);
    const examples = OPENAPI_EXAMPLES[route.fn.id];
    const parameters = parametersOf(contract);
    const success = {
      ...jsonContent(ref(nameOf(outputs, contract.response, `${pascal(route.fn.id)}Response`)), examples?.response),
      ...documentContent(contract),
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.fn.id,
      summary: route.fn.description,
      tags: [tagOf(route.path)],
      'x-access': route.access,
      security: security[route.access],
      ...(parameters.length > 0 && { parameters }),
      ...(contract.body && {
        requestBody: {
          required: !contract.body.safeParse(undefined).success,
          content: jsonContent(ref(nameOf(inputs, contract.body, `${pascal(route.fn.id)}Request`)), examples?.request),
        },
      }),
      responses: responsesOf(route, contract, success),
    };
  }
  const requestNames = new Set(inputs.values());
  const clash = [...outputs.values()].find((name) => requestNames.has(name));
  if (clash) throw new Error(`component ${clash} names both a request and a response shape`);
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Investigation Analysis Service',
      version: '0.1.0',
      description:
        "AI analyses of investigation evidence. Errors have the shape { error: { code, message, details? } }; API Gateway's own " +
        'answers (401 from the authorizer, 413, 429 throttles, 500, 504) have { message }. Lists take `limit` and `cursor` and answer ' +
        '`next_cursor` (null on the last page). Every answer of the service carries x-request-id.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'The local twin (npm start)',
        variables: { host: { default: '127.0.0.1' }, port: { default: '3000', description: 'PORT' } },
      },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployed stage (npx cdk deploy prints its ApiUrl; a custom domain when apiDomainName is set)',
        variables: { apiId: { default: 'abcdef1234', description: "the HTTP API's id" }, region: { default: 'us-east-1' } },
      },
    ],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: { ...componentsOf(outputs, 'output'), ...componentsOf(inputs, 'input') },
      headers: HEADERS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Cognito access token (the twin: npm run token)' },
        cronSecret: { type: 'http', scheme: 'bearer', description: 'The scheduler secret, for /api/admin/cron/* only' },
      },
    },
  };
};
