/**
 * A bucket's CORS configuration as S3 applies it (lib/twin/aws/s3-cors.ts): the first rule that allows the origin,
 * the method and (for a preflight) every requested header; a preflight no rule allows, or to a bucket without
 * CORS, is refused; an actual request's answer carries the Access-Control-* headers only for an allowed origin.
 */
import type { PlanCorsRule } from '../../lib/twin/assembly/plan';
import { corsHeaders, preflight } from '../../lib/twin/aws/s3-cors';

const APP: PlanCorsRule = {
  allowedOrigins: ['https://app.example.com'],
  allowedMethods: ['PUT', 'GET', 'HEAD'],
  allowedHeaders: ['content-type'],
  exposedHeaders: ['ETag'],
  maxAgeSeconds: 3600,
};
const PREVIEWS: PlanCorsRule = {
  allowedOrigins: ['https://*.preview.example.com'],
  allowedMethods: ['GET'],
  allowedHeaders: ['x-amz-*'],
  exposedHeaders: [],
};
const ANYONE: PlanCorsRule = { allowedOrigins: ['*'], allowedMethods: ['GET'], allowedHeaders: [], exposedHeaders: [] };

const ask = (rules: PlanCorsRule[], origin: string | undefined, method: string | undefined, headers?: string) =>
  preflight(rules, { origin, method, headers });

describe('preflight', () => {
  test("the app's upload: allowed, with S3's headers", () => {
    expect(ask([APP], 'https://app.example.com', 'PUT', 'Content-Type')).toEqual({
      allowed: true,
      headers: {
        'access-control-allow-origin': 'https://app.example.com',
        'access-control-allow-methods': 'PUT, GET, HEAD',
        'access-control-allow-headers': 'Content-Type',
        'access-control-expose-headers': 'ETag',
        'access-control-max-age': '3600',
        'access-control-allow-credentials': 'true',
        vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
      },
    });
  });

  test('the first rule that allows all of it wins; wildcards in origins and headers', () => {
    expect(ask([APP, PREVIEWS], 'https://pr-12.preview.example.com', 'GET', 'x-amz-meta-a, X-AMZ-Date')).toMatchObject({
      allowed: true,
      headers: { 'access-control-allow-origin': 'https://pr-12.preview.example.com', 'access-control-allow-methods': 'GET' },
    });
    expect(ask([ANYONE], 'https://anywhere.example', 'GET')).toMatchObject({
      allowed: true,
      headers: { 'access-control-allow-origin': '*' },
    });
    expect(ask([ANYONE], 'https://anywhere.example', 'GET')).not.toMatchObject({ headers: { 'access-control-allow-credentials': 'true' } });
  });

  test.each([
    ['another origin', 'https://evil.example', 'PUT', 'content-type'],
    ['a subdomain of the origin', 'https://x.app.example.com', 'PUT', 'content-type'],
    ['http for https', 'http://app.example.com', 'PUT', 'content-type'],
    ['a method no rule allows', 'https://app.example.com', 'DELETE', undefined],
    ['a header no rule allows', 'https://app.example.com', 'PUT', 'content-type, x-amz-acl'],
    ['a preview origin for a PUT', 'https://pr-1.preview.example.com', 'PUT', undefined],
  ])('%s: 403 AccessForbidden', (_, origin, method, headers) => {
    expect(ask([APP, PREVIEWS], origin, method, headers)).toMatchObject({
      allowed: false,
      status: 403,
      code: 'AccessForbidden',
      message: expect.stringMatching(/^CORSResponse: This CORS request is not allowed\./),
    });
  });

  test('a bucket without CORS, and preflights missing what they need', () => {
    expect(ask([], 'https://app.example.com', 'PUT')).toMatchObject({
      status: 403,
      message: 'CORSResponse: CORS is not enabled for this bucket.',
    });
    expect(ask([APP], undefined, 'PUT')).toMatchObject({ status: 400, message: 'Insufficient information. Origin request header needed.' });
    expect(ask([APP], 'https://app.example.com', undefined)).toMatchObject({
      status: 400,
      message: 'Invalid Access-Control-Request-Method: null',
    });
  });
});

describe('an actual request', () => {
  test("from the app's origin: S3's headers, without Allow-Headers", () => {
    expect(corsHeaders([APP], 'https://app.example.com', 'GET')).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'PUT, GET, HEAD',
      'access-control-expose-headers': 'ETag',
      'access-control-max-age': '3600',
      'access-control-allow-credentials': 'true',
      vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    });
  });

  test('from another origin, with a method its rule does not allow, or without an Origin: none', () => {
    expect(corsHeaders([APP], 'https://evil.example', 'GET')).toEqual({});
    expect(corsHeaders([APP], 'https://app.example.com', 'DELETE')).toEqual({});
    expect(corsHeaders([APP], undefined, 'GET')).toEqual({});
  });
});
