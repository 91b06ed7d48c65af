/**
 * The HTTP API as deployed: the gateway (./gateway.ts) with the API's JWT authorizer over the pool's keys, its
 * integrations invoked only where the function's resource policy lets API Gateway invoke it, presigned URLs in its
 * answers led to the public S3 endpoint; beside the API, its OpenAPI document and the web app (CloudFront's part).
 */
import { createServer } from 'node:http';
import { createLocalJWKSet } from 'jose';
import { verifyToken } from '#core/auth/jwt';
import type { TwinPlan } from '../assembly/plan';
import { withPublicUrls } from '../aws/s3-public';
import type { DeploymentIam } from '../iam/decisions';
import { jwksDocument, type KeyFile } from '../identity/tokens';
import { deniedInvocation, type LambdaRuntime } from '../runtime/lambda';
import type { Stops } from '../stops';
import { apiDocs } from './api-docs';
import { createGateway } from './gateway';
import { webAppSite } from './web-app';

export const startApi = async (
  stops: Stops,
  options: {
    plan: TwinPlan;
    keys: KeyFile;
    iam: DeploymentIam;
    invoke: LambdaRuntime['invoke'];
    toPublicUrl: (text: string) => string | undefined;
    publicS3: string;
    /** the web app's build folder (./web-app.ts) */
    webApp: string;
    /** 0 picks a free one */
    port: number;
    log: (line: string) => void;
  },
) => {
  const { plan, iam } = options;
  const { region, account, api } = plan;
  const authorizer = api.authorizer;
  const localKeys = createLocalJWKSet(jwksDocument(options.keys));
  const server = createServer(
    createGateway({
      api,
      account,
      authorize: (token) => {
        if (!authorizer) throw new Error('the API has no JWT authorizer');
        return verifyToken(token, localKeys, { issuer: authorizer.issuer, audience: authorizer.audience });
      },
      invoke: async (functionId, event, requestId) => {
        const fn = plan.functions.find((f) => f.id === functionId)!;
        const source = `arn:aws:execute-api:${region}:${account}:${api.id}/$default/${event.routeKey.replace(' ', '')}`;
        if (!iam.mayInvoke(fn, 'apigateway.amazonaws.com', source))
          return deniedInvocation(`API Gateway may not invoke ${fn.functionName} (${source})`);
        return options.invoke(functionId, event, { requestId });
      },
      rewriteAnswer: (answer) => withPublicUrls(answer, options.toPublicUrl),
      onRequest: options.log,
      extras: apiDocs(),
      // the app uploads files by presigned URL to the public S3 endpoint, as deployed to the bucket's address
      site: webAppSite(options.webApp, [options.publicS3]),
    }),
  );
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, '127.0.0.1', ok);
  });
  stops.add(
    () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  );
  return { port: (server.address() as { port: number }).port };
};
