/**
 * The twin's AWS: the stand-ins (fauxqs for SQS and S3 with the deployment's queues and buckets, Secrets Manager
 * with its secrets, the certificates of every AWS host name and the proxy's), then the two ways in: the AWS edge
 * the functions' calls reach (./edge.ts) and the public S3 endpoint presigned URLs lead users to (./s3-public.ts).
 */
import { join } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ENV } from '#manifest/runtime-names';
import { environmentValue, type TwinPlan } from '../assembly/plan';
import type { DeploymentIam, RoleSession } from '../iam/decisions';
import type { LambdaRuntime } from '../runtime/lambda';
import type { Stops } from '../stops';
import { awsEdgeHandler, startAwsEdge } from './edge';
import type { EdgeAddress } from './edge-client';
import { lambdaService } from './lambda-service';
import type { TwinAccount } from './account';
import { startLocalAws } from './local-aws';
import { objectEvents } from './s3-events';
import { publicUrls, startS3Public } from './s3-public';
import { loadOrCreateSecrets } from './secrets';
import { loadOrCreateTls } from './tls';

const REGION_PATTERN = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/**
 * SQS and S3 (fauxqs), the secrets and the certificates: they need only the rendered deployment. Secret values
 * given at start (the cron and webhook secrets of `npm start`) are put as an operator's PutSecretValue would be.
 */
export const startAwsServices = async (
  stops: Stops,
  options: { twinDir: string; plan: TwinPlan; secretValues?: { cron?: string; webhook?: string } },
) => {
  const { twinDir, plan } = options;
  const { region } = plan;
  const regions = [
    ...new Set([region, ...plan.functions.flatMap((f) => Object.values(f.environment)).filter((v) => REGION_PATTERN.test(v))]),
  ];
  const proxyDomain = plan.database.proxyEndpoint.split('.').slice(1).join('.');
  const parts = [
    stops.started(
      startLocalAws({ dataDir: join(twinDir, 'aws'), region, queues: plan.queues, buckets: plan.buckets.map((b) => b.name) }),
      (aws) => () => aws.stop(),
    ),
    loadOrCreateTls(join(twinDir, 'tls'), [
      ...regions.flatMap((r) => [`*.${r}.amazonaws.com`, `*.s3.${r}.amazonaws.com`]),
      '*.s3.amazonaws.com',
      `*.${proxyDomain}`,
    ]),
  ] as const;
  await Promise.allSettled(parts);
  const [local, certificates] = await Promise.all(parts);

  const secrets = loadOrCreateSecrets(twinDir, plan.secrets, plan.database);
  const given = { [ENV.cronSecretArn]: options.secretValues?.cron, [ENV.webhookSecretArn]: options.secretValues?.webhook };
  for (const [arnVar, value] of Object.entries(given)) if (value) secrets.put(environmentValue(plan, arnVar), value);
  /** the value of the secret a function environment variable names (CRON_SECRET_ARN …) */
  const secretOf = (arnVar: string) => {
    const value = secrets.value(environmentValue(plan, arnVar));
    if (value === undefined) throw new Error(`the secret ${arnVar} names is not in the deployment`);
    return value;
  };
  const databaseSecret = async () => JSON.parse(secrets.value(plan.database.secretArn) ?? '{}') as { username: string; password: string };
  return { local, certificates, secrets, secretOf, databaseSecret };
};

type AwsServices = Awaited<ReturnType<typeof startAwsServices>>;

/**
 * The AWS edge (every AWS host name of the functions' environments) and the public S3 endpoint, one handler
 * behind both. EventBridge delivers the buckets' object events to the rules' queues with the twin's own access to SQS.
 */
export const startAwsEndpoints = async (
  stops: Stops,
  options: {
    plan: TwinPlan;
    services: AwsServices;
    /** where Bedrock and Cognito calls go: the Bedrock stand-in and the local identity provider */
    bedrockUrl: string;
    identityProviderUrl: string;
    /** what the account answers about itself (npm run preflight's reads) */
    account: TwinAccount;
    sessions: ReadonlyMap<string, RoleSession>;
    iam: DeploymentIam;
    invoke: LambdaRuntime['invoke'];
    log: (line: string) => void;
  },
) => {
  const { plan, services, iam, log } = options;
  const { region, account } = plan;
  const eventBridgeSqs = new SQSClient({
    region,
    endpoint: services.local.endpoint,
    credentials: { accessKeyId: 'twin-eventbridge', secretAccessKey: 'twin' },
  });
  stops.add(() => eventBridgeSqs.destroy());
  const invokeFunction = lambdaService(plan.functions, (id, event) => options.invoke(id, event));
  const handle = awsEdgeHandler({
    backends: {
      sqs: { url: services.local.endpoint, keepHost: true },
      s3: { url: services.local.endpoint, keepHost: true },
      'bedrock-runtime': { url: options.bedrockUrl },
      'cognito-idp': { url: options.identityProviderUrl },
      secretsmanager: { handle: services.secrets.handle },
      lambda: { handle: async (request) => options.account.lambdaAccountSettings(request) ?? invokeFunction(request) },
      ...options.account.backends,
    },
    sessions: options.sessions,
    decide: iam.decideCall,
    secretArnOf: services.secrets.arnOf,
    objectCreated: objectEvents({
      plan,
      send: async (queueUrl, body) => {
        await eventBridgeSqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
      },
      log,
    }),
    log,
  });
  const edge = await stops.started(startAwsEdge({ tls: services.certificates, account, handle, log }), (e) => () => e.stop());
  // copies of the buckets' CORS rules: the twin's own web app origin joins the app's (allowAppOrigin)
  const buckets = plan.buckets.map((b) => ({ ...b, cors: b.cors.map((rule) => ({ ...rule, allowedOrigins: [...rule.allowedOrigins] })) }));
  const s3Public = await stops.started(startS3Public({ region, account, buckets, handle, log }), (s) => () => s.stop());
  const address: EdgeAddress = { port: edge.port, caPem: services.certificates.caPem };
  return {
    edge: address,
    publicS3: s3Public.url,
    /** a presigned URL of a bucket's, as the user follows it: to the public S3 endpoint */
    toPublicUrl: publicUrls(
      s3Public.url,
      plan.buckets.map((b) => b.name),
      region,
    ),
    /**
     * The twin serves the web app itself, in CloudFront's place: the rules that let the stage's app origin (the API's
     * CORS origin, as the stacks give the files bucket) use the bucket let the twin's own address, where it serves the
     * app, in too, so the browser's uploads cross origins and meet the bucket's CORS as they do deployed.
     */
    allowAppOrigin: (port: number) => {
      const stageOrigins = plan.api.cors?.allowOrigins ?? [];
      for (const rule of buckets.flatMap((b) => b.cors))
        if (rule.allowedOrigins.some((origin) => stageOrigins.includes(origin)))
          rule.allowedOrigins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`);
    },
  };
};
