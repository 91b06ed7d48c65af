/**
 * The one string rule at the edge (issue 14, item 5): every string a contract validates — body, query,
 * path parameters, headers; keys and free-form fields too — refuses NUL and unpaired UTF-16 surrogates
 * with a 400 `validation_failed` naming the field, and the audit trail stores such text escaped.
 */
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { loginBodySchema } from '#core/auth/contract';
import { defineRoute, parseWith } from '#core/contract';
import { feedbackBodySchema } from '#core/feedback/contract';
import { DomainError } from '#core/errors';
import { route, type HttpEvent } from '#core/http/route';
import { escapeUnsafeDeep, escapeUnsafeText, isUnsafeText, TOO_DEEP_MESSAGE, unsafeTextIssues } from '#core/strings';
import { paymentEventSchema } from '#core/payments/webhook';

const HOSTILE = ['a\u0000b', '\u0000', 'x\uD800', '\uDC00y', 'a\uDBFFb', '\uDFFF\uD800'];
const FINE = ['', 'plain', 'émoji 😀 ok', '\uD83D\uDE00', 'tab\tnew\nline', '\u0001\u007f', 'a\\u0000b'];

test.each(HOSTILE)('unsafe: %j', (text) => {
  expect(isUnsafeText(text)).toBe(true);
  expect(isUnsafeText(escapeUnsafeText(text))).toBe(false);
});

test.each(FINE)('safe, and left alone: %j', (text) => {
  expect(isUnsafeText(text)).toBe(false);
  expect(escapeUnsafeText(text)).toBe(text);
});

test('escaping writes the code unit out as literal \\uXXXX text', () => {
  expect(escapeUnsafeText('a\u0000b\uD800')).toBe('a\\u0000b\\ud800');
  expect(escapeUnsafeDeep({ 'k\u0000': ['x\uDC00', 1, null], n: 2 })).toEqual({ 'k\\u0000': ['x\\udc00', 1, null], n: 2 });
});

test('every offending field is named by its path, keys and nested free-form values included', () => {
  expect(unsafeTextIssues({ a: 'ok', b: { c: ['fine', 'x\u0000'] }, ['k\uD800']: 1 })).toEqual([
    { path: 'b.c.1', message: expect.stringMatching(/NUL/) },
    { path: 'k\\ud800', message: expect.stringMatching(/field names/) },
  ]);
  expect(unsafeTextIssues(['ok', 3, true, null])).toEqual([]);
});

const refusal = (schema: z.ZodType, value: unknown) => {
  try {
    parseWith(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return {
      kind: (error as DomainError).kind,
      code: (error as DomainError).code,
      paths: ((error as DomainError).details as { path: string }[]).map((d) => d.path),
    };
  }
  throw new Error('accepted');
};

test.each(HOSTILE)('every contract refuses %j with a 400 validation_failed naming the field', (bad) => {
  expect(refusal(feedbackBodySchema, { action: 'edit', content: bad })).toEqual({
    kind: 'invalid',
    code: 'validation_failed',
    paths: ['content'],
  });
  expect(refusal(loginBodySchema, { email: `a${bad}@example.com`, password: 'Secret-Passw0rd!' })).toMatchObject({
    code: 'validation_failed',
    paths: ['email'],
  });
  const event = { id: `evt_${bad}`, type: 'invoice.paid', data: { object: { id: 'in_1', amount_paid: 1, currency: 'usd' } } };
  expect(refusal(paymentEventSchema, event)).toMatchObject({ kind: 'invalid', paths: ['id'] });
  // a schema that would take any string (or anything) still refuses it
  expect(refusal(z.object({ free: z.unknown() }), { free: { nested: [bad] } })).toMatchObject({ paths: ['free.nested.0'] });
  expect(refusal(z.record(z.string(), z.number()), { [bad]: 1 })).toMatchObject({ paths: [escapeUnsafeText(bad)] });
});

test('a value nested deeper than the rule looks is refused, so nothing unchecked gets through (a webhook stored it with a 500)', () => {
  const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [nest(depth - 1, leaf)]);
  expect(unsafeTextIssues({ fine: nest(64, 'ok') })).toEqual([]);
  expect(unsafeTextIssues({ deep: nest(65, 'a\u0000b') })).toEqual([{ path: `deep${'.0'.repeat(64)}`, message: TOO_DEEP_MESSAGE }]);
  const event = { id: 'evt_1', type: 'invoice.paid', data: { object: { amount_paid: 1 } }, nested: nest(100, null) };
  expect(refusal(paymentEventSchema, event)).toMatchObject({ kind: 'invalid', code: 'validation_failed' });
});

test('schema issues and string issues are reported together, once per field', () => {
  expect(refusal(z.object({ a: z.string().max(2), b: z.number() }), { a: 'x\u0000yz', b: 'no' }).paths).toEqual(['a', 'b']);
});

test('through the route wrapper: a NUL in a JSON body is a 400 before the implementation changes anything', async () => {
  let ran = false;
  const handler = route(
    defineRoute({ route: 'GET /api/health', body: z.object({ content: z.string() }), response: z.unknown() }),
    async ({ body }) => {
      ran = true;
      return { body };
    },
  );
  const event = {
    version: '2.0',
    routeKey: 'GET /api/health',
    rawPath: '/',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    isBase64Encoded: false,
    body: '{"content":"a\\u0000b"}',
    requestContext: { http: { method: 'GET' } },
  } as unknown as HttpEvent;
  const result = await handler(event, {} as Context);
  expect(ran).toBe(false);
  expect(result.statusCode).toBe(400);
  expect(JSON.parse(result.body!)).toEqual({
    error: {
      code: 'validation_failed',
      message: 'The request is not valid.',
      details: [{ path: 'content', message: expect.stringMatching(/NUL/) }],
    },
  });
});
