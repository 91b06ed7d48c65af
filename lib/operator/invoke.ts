/**
 * How an operator command reaches its function: Lambda Invoke, signed with the operator's credentials.
 * `--stage dev|prod`: the deployed stage, through the AWS SDK's usual credential chain and region (the
 * function's name is fixed: `ias-<stage>-<id>`). Otherwise the running local twin (`npm start`, found as
 * lib/twin/running.ts finds it): its AWS edge, trusted with the twin's CA, where the operator's
 * key is not a function's and so passes IAM as an administrator's would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { deployedFunctionName, stagePrefix } from '#manifest';
import { edgeClientConfig, edgeRequest } from '../twin/aws/edge-client';
import { locateTwin, TwinNotFoundError, type RunningTwin } from '../twin/running';

export interface OperatorTarget {
  /** where the call goes, for messages: `stage dev (eu-west-1)` or `the local twin` */
  describe: string;
  invoke: (functionId: string, payload: unknown) => Promise<unknown>;
  /** PUT a body to a presigned URL a function handed out (the twin's URLs name AWS hosts: they go through its edge) */
  upload: (url: string, body: string, contentType: string) => Promise<void>;
}

/** A command's answer: the function's result, or its refusal/fault as an Error with the function's message. */
export class OperatorCallError extends Error {}

const invoker = (client: LambdaClient, nameOf: (functionId: string) => string) => async (functionId: string, payload: unknown) => {
  const out = await client.send(new InvokeCommand({ FunctionName: nameOf(functionId), Payload: Buffer.from(JSON.stringify(payload)) }));
  const body: unknown = out.Payload && out.Payload.length > 0 ? JSON.parse(Buffer.from(out.Payload).toString('utf8')) : null;
  if (out.FunctionError) {
    const { errorType, errorMessage } = (body ?? {}) as { errorType?: string; errorMessage?: string };
    throw new OperatorCallError(`${nameOf(functionId)} failed: ${errorType ?? out.FunctionError}: ${errorMessage ?? 'no message'}`);
  }
  return body;
};

export const operatorTarget = (options: { stage?: string; region?: string; twinDir?: string }): OperatorTarget => {
  if (options.stage) {
    const client = new LambdaClient({ ...(options.region && { region: options.region }) });
    const prefix = stagePrefix(options.stage);
    return {
      describe: `stage ${options.stage}`,
      invoke: invoker(client, (id) => deployedFunctionName(prefix, id)),
      upload: async (url, body, contentType) => {
        const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
        if (!res.ok) throw new OperatorCallError(`the upload was refused (${res.status}): ${await res.text()}`);
      },
    };
  }
  let twin: RunningTwin;
  try {
    twin = locateTwin(options.twinDir === undefined ? {} : { twinDir: options.twinDir });
  } catch (error) {
    if (error instanceof TwinNotFoundError) throw new OperatorCallError(`${error.message}; or name a deployed stage with --stage`);
    throw error;
  }
  const { twinDir, endpoints } = twin;
  const caPem = readFileSync(join(twinDir, 'tls', 'ca.pem'), 'utf8');
  const edge = { port: endpoints.edgePort, caPem };
  const client = new LambdaClient(
    edgeClientConfig(edge, endpoints.region, { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' }),
  );
  return {
    describe: 'the local twin',
    invoke: invoker(client, (id) => {
      const name = endpoints.functions[id];
      if (!name)
        throw new OperatorCallError(`the running twin has no function ${id}: restart it (\`npm start\`) to deploy the current code`);
      return name;
    }),
    upload: async (url, body, contentType) => {
      const res = await edgeRequest(edge, url, { method: 'PUT', headers: { 'content-type': contentType }, body });
      if (res.status >= 300) throw new OperatorCallError(`the upload was refused (${res.status}): ${res.body.toString('utf8')}`);
    },
  };
};
