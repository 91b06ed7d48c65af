/**
 * A bucket's CORS configuration as S3 applies it. S3 takes the first rule whose AllowedOrigins match the
 * request's Origin (an origin may hold one `*` wildcard) and whose AllowedMethods hold the method (for a
 * preflight, Access-Control-Request-Method), and, for a preflight, whose AllowedHeaders match every header
 * of Access-Control-Request-Headers (case-insensitive, `*` wildcards). A preflight (OPTIONS) that no rule
 * allows is refused with 403; an actual request is served either way, with the Access-Control-* headers
 * only when a rule allows its origin and method, so the browser hands the answer to the page only then.
 * Pure.
 */
import type { PlanCorsRule } from '../assembly/plan';
import { globMatches } from '../iam/policy';

/** S3's CORS wildcard is IAM's `*` (a `?`, IAM's other wildcard, cannot stand in an origin or a header name). */
const wildcard = globMatches;

const ruleAllows = (rule: PlanCorsRule, origin: string, method: string, requestHeaders: string[]): boolean =>
  rule.allowedOrigins.some((allowed) => wildcard(allowed, origin)) &&
  rule.allowedMethods.includes(method) &&
  requestHeaders.every((header) => rule.allowedHeaders.some((allowed) => wildcard(allowed.toLowerCase(), header.toLowerCase())));

/** The first rule that allows this origin and method (and these requested headers, for a preflight). */
const ruleFor = (rules: PlanCorsRule[], origin: string, method: string, requestHeaders: string[] = []): PlanCorsRule | undefined =>
  rules.find((rule) => ruleAllows(rule, origin, method, requestHeaders));

/** What S3 answers about the rule that allowed a request from `origin`. */
const allowHeaders = (rule: PlanCorsRule, origin: string): Record<string, string> => {
  const any = rule.allowedOrigins.includes('*');
  return {
    'access-control-allow-origin': any ? '*' : origin,
    'access-control-allow-methods': rule.allowedMethods.join(', '),
    ...(rule.exposedHeaders.length > 0 && { 'access-control-expose-headers': rule.exposedHeaders.join(', ') }),
    ...(rule.maxAgeSeconds !== undefined && { 'access-control-max-age': String(rule.maxAgeSeconds) }),
    ...(!any && { 'access-control-allow-credentials': 'true' }),
  };
};

/** The Access-Control-* headers of an actual request's answer (none without an Origin, or when no rule allows it). */
export const corsHeaders = (rules: PlanCorsRule[], origin: string | undefined, method: string): Record<string, string> => {
  const rule = origin === undefined ? undefined : ruleFor(rules, origin, method);
  return rule ? { ...allowHeaders(rule, origin!), vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method' } : {};
};

export type PreflightAnswer =
  | { allowed: true; headers: Record<string, string> }
  | { allowed: false; status: 400 | 403; code: string; message: string; fields: [string, string][] };

/** S3's answer to a preflight: OPTIONS with Origin, Access-Control-Request-Method and maybe Access-Control-Request-Headers. */
export const preflight = (
  rules: PlanCorsRule[],
  request: { origin: string | undefined; method: string | undefined; headers: string | undefined },
): PreflightAnswer => {
  if (!request.origin) {
    return {
      allowed: false,
      status: 400,
      code: 'BadRequest',
      message: 'Insufficient information. Origin request header needed.',
      fields: [],
    };
  }
  if (!request.method || !/^(GET|PUT|POST|DELETE|HEAD)$/.test(request.method)) {
    return {
      allowed: false,
      status: 400,
      code: 'BadRequest',
      message: `Invalid Access-Control-Request-Method: ${request.method ?? 'null'}`,
      fields: [],
    };
  }
  if (rules.length === 0) {
    return {
      allowed: false,
      status: 403,
      code: 'AccessForbidden',
      message: 'CORSResponse: CORS is not enabled for this bucket.',
      fields: [],
    };
  }
  const requested = (request.headers ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const rule = ruleFor(rules, request.origin, request.method, requested);
  if (!rule) {
    return {
      allowed: false,
      status: 403,
      code: 'AccessForbidden',
      message:
        "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
      fields: [
        ['Method', request.method],
        ['ResourceType', 'OBJECT'],
      ],
    };
  }
  return {
    allowed: true,
    headers: {
      ...allowHeaders(rule, request.origin),
      ...(requested.length > 0 && { 'access-control-allow-headers': requested.join(', ') }),
      vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    },
  };
};
