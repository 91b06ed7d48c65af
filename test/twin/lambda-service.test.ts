/**
 * The twin's Lambda Invoke API on its own: which function an Invoke names (name, ARN, partial ARN,
 * qualifier), the permission it needs, and Lambda's answers (result, flagged function error, 202 for
 * Event, 404 for an unknown function, 400 for a payload that is not JSON), with AccessDenied in
 * Lambda's REST-JSON shape.
 */
import type { PlanFunction } from '../../lib/twin/assembly/plan';
import { accessDenied, requiredPermissions, serviceOfHost, type AwsHttpRequest } from '../../lib/twin/iam/requests';
import { lambdaService } from '../../lib/twin/aws/lambda-service';
import type { InvokeOutcome } from '../../lib/twin/runtime/lambda';

const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:ias-dev-users';
const request = (name: string, body = '{"command":"list"}', headers: Record<string, string> = {}): AwsHttpRequest => ({
  service: 'lambda',
  method: 'POST',
  host: 'lambda.us-east-1.amazonaws.com',
  path: `/2015-03-31/functions/${encodeURIComponent(name)}/invocations`,
  headers,
  body: Buffer.from(body),
  region: 'us-east-1',
  account: '000000000000',
});

test("Lambda's host is the Lambda service", () => {
  expect(serviceOfHost('lambda.eu-west-1.amazonaws.com')).toEqual({ service: 'lambda', region: 'eu-west-1' });
});

test.each([['ias-dev-users'], ['ias-dev-users:$LATEST'], ['000000000000:function:ias-dev-users'], [ARN], [`${ARN}:live`]])(
  'Invoke of %s needs lambda:InvokeFunction on the unqualified function ARN',
  (name) => {
    expect(requiredPermissions(request(name))).toEqual([{ action: 'lambda:InvokeFunction', resource: ARN }]);
  },
);

test("a refused Invoke is a 403 AccessDeniedException in Lambda's shape", () => {
  const denied = accessDenied(request('ias-dev-users'), {
    principalArn: 'arn:aws:sts::000000000000:assumed-role/r/f',
    action: 'lambda:InvokeFunction',
    resource: ARN,
    reason: 'no-allow',
  });
  expect(denied.status).toBe(403);
  expect(denied.headers['x-amzn-errortype']).toBe('AccessDeniedException');
  expect(JSON.parse(denied.body).Message).toMatch(/is not authorized to perform: lambda:InvokeFunction on resource: .*ias-dev-users/);
});

describe('answers', () => {
  const fn = { id: 'users', arn: ARN, functionName: 'ias-dev-users' } as PlanFunction;
  const calls: unknown[] = [];
  const outcome = (settled: Partial<InvokeOutcome>): InvokeOutcome => ({ durationMs: 1, coldStart: false, ...settled }) as InvokeOutcome;
  let next: InvokeOutcome = outcome({ ok: true, value: { ok: true, result: 1 } });
  const serve = lambdaService([fn], async (id, event) => {
    calls.push([id, event]);
    return next;
  });

  test("the function's result, as JSON", async () => {
    const answer = await serve(request('ias-dev-users'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, result: 1 });
    expect(calls.at(-1)).toEqual(['users', { command: 'list' }]);
  });

  test('a function error is a 200 flagged Unhandled, the error as the payload', async () => {
    next = outcome({ ok: false, timedOut: false, error: { errorType: 'Error', errorMessage: 'database unreachable' } });
    const answer = await serve(request('ias-dev-users'));
    expect(answer.status).toBe(200);
    expect(answer.headers['x-amz-function-error']).toBe('Unhandled');
    expect(JSON.parse(answer.body)).toMatchObject({ errorType: 'Error', errorMessage: 'database unreachable' });
  });

  test('Event is accepted at once (202); an unknown function is 404; a payload that is not JSON is 400, and nothing runs', async () => {
    expect((await serve(request('ias-dev-users', '{}', { 'x-amz-invocation-type': 'Event' }))).status).toBe(202);
    const before = calls.length;
    const missing = await serve(request('ias-dev-nothing'));
    expect(missing.status).toBe(404);
    expect(missing.headers['x-amzn-errortype']).toBe('ResourceNotFoundException');
    const bad = await serve(request('ias-dev-users', '{oops'));
    expect(bad.status).toBe(400);
    expect(bad.headers['x-amzn-errortype']).toBe('InvalidRequestContentException');
    expect(calls.length).toBe(before);
  });
});
