/**
 * The twin's Lambda API behind the AWS edge: Invoke (`POST /2015-03-31/functions/{name}/invocations`),
 * which operator commands use to run an operator function (`npm run users`). The edge has already
 * checked `lambda:InvokeFunction` against the caller's policy (./iam/requests.ts); this answers as
 * Lambda does: 200 with the function's result; a function error also 200, flagged by
 * `X-Amz-Function-Error: Unhandled` with the error as the payload; `Event` invocations 202 at once;
 * an unknown function 404 ResourceNotFoundException.
 */
import { randomUUID } from 'node:crypto';
import type { PlanFunction } from '../assembly/plan';
import { invokedFunctionArn, type AwsHttpRequest } from '../iam/requests';
import type { InvokeOutcome } from '../runtime/lambda';

export const lambdaService =
  (functions: readonly PlanFunction[], invoke: (functionId: string, event: unknown) => Promise<InvokeOutcome>) =>
  async (request: AwsHttpRequest): Promise<{ status: number; headers: Record<string, string>; body: string }> => {
    const requestId = randomUUID();
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
      status,
      headers: { 'content-type': 'application/json', 'x-amzn-requestid': requestId, ...headers },
      body: JSON.stringify(body),
    });
    const error = (status: number, type: string, message: string) =>
      json(status, { Type: 'User', Message: message }, { 'x-amzn-errortype': type });

    const arn = request.method.toUpperCase() === 'POST' ? invokedFunctionArn(request) : undefined;
    if (!arn)
      return error(400, 'InvalidRequestContentException', `The twin's Lambda serves Invoke only, not ${request.method} ${request.path}`);
    const fn = functions.find((f) => f.arn === arn);
    if (!fn) return error(404, 'ResourceNotFoundException', `Function not found: ${arn}`);
    let event: unknown;
    try {
      event = request.body.length === 0 ? {} : JSON.parse(request.body.toString('utf8'));
    } catch {
      return error(400, 'InvalidRequestContentException', 'Could not parse request body into json: the payload is not JSON');
    }
    const type = request.headers['x-amz-invocation-type'] ?? 'RequestResponse';
    if (type === 'DryRun') return { status: 204, headers: { 'x-amzn-requestid': requestId }, body: '' };
    if (type === 'Event') {
      void invoke(fn.id, event);
      return { status: 202, headers: { 'x-amzn-requestid': requestId }, body: '' };
    }
    const outcome = await invoke(fn.id, event);
    const executed = { 'x-amz-executed-version': '$LATEST' };
    if (outcome.ok) return json(200, outcome.value ?? null, executed);
    return json(
      200,
      { errorType: outcome.error.errorType, errorMessage: outcome.error.errorMessage, trace: [] },
      { ...executed, 'x-amz-function-error': 'Unhandled' },
    );
  };
