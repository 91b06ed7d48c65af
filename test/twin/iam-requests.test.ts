/**
 * IAM permissions of raw AWS requests, produced by the real SDK clients against a recording HTTP
 * server on 127.0.0.1, and AccessDenied answers checked by what those clients then throw.
 *
 * Most clients point at the server with `endpoint`; where the AWS host form matters (virtual-hosted
 * S3, an SQS queue URL on AWS) the client keeps its AWS endpoint and a request handler delivers the
 * request to the server, so the Host header is the one AWS would see.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BedrockRuntimeClient,
  ApplyGuardrailCommand,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { BedrockClient, GetFoundationModelAvailabilityCommand, GetInferenceProfileCommand } from '@aws-sdk/client-bedrock';
import * as cognito from '@aws-sdk/client-cognito-identity-provider';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import {
  accessDenied,
  COGNITO_UNAUTHENTICATED_OPERATIONS,
  requiredPermissions,
  serviceOfHost,
  signingAccessKey,
  type AwsHttpRequest,
  type AwsService,
  type RequiredPermission,
} from '../../lib/twin/iam/requests';

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const ACCESS_KEY = 'AKIDIAMREQUESTSTEST';
const PRINCIPAL = `arn:aws:sts::${ACCOUNT}:assumed-role/ias-generate-role/ias-generate`;
const BUCKET = 'ias-files';
const POOL = 'us-east-1_AbCdEf123';
const QUEUE_ARN = `arn:aws:sqs:${REGION}:${ACCOUNT}:ias-generation`;
const MODEL = 'anthropic.claude-sonnet-4-20250514-v1:0';
const PROFILE = `us.${MODEL}`;
const FOUNDATION_MODEL_ARN = `arn:aws:bedrock:${REGION}::foundation-model/${MODEL}`;
const PROFILE_ARN = `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/${PROFILE}`;

interface Recorded {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const harmless = (): Answer => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });

let server: http.Server;
let port: number;
let endpoint: string;
const recorded: Recorded[] = [];
let answer: (request: Recorded) => Answer = harmless;

/** Delivers every request to the recording server, keeping the Host header the SDK set for AWS. */
class ToRecorder extends NodeHttpHandler {
  override handle(...[request, options]: Parameters<NodeHttpHandler['handle']>): ReturnType<NodeHttpHandler['handle']> {
    Object.assign(request, { protocol: 'http:', hostname: '127.0.0.1', port });
    return super.handle(request, options);
  }
}

const credentials = { accessKeyId: ACCESS_KEY, secretAccessKey: 'not-a-secret' };
const clientConfig = () => ({ region: REGION, endpoint, credentials, maxAttempts: 1 });
const awsHostConfig = (region = REGION) => ({ region, credentials, maxAttempts: 1, requestHandler: new ToRecorder() });

let sqs: SQSClient;
let s3: S3Client;
let s3AwsHost: S3Client;
let bedrock: BedrockRuntimeClient;
let userPools: cognito.CognitoIdentityProviderClient;
let secrets: SecretsManagerClient;
const clients: { destroy: () => void }[] = [];
const track = <T extends { destroy: () => void }>(client: T): T => {
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : (value ?? '')]),
      );
      const request = { method: req.method ?? '', host: headers.host ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks) };
      recorded.push(request);
      const { status, headers: answerHeaders, body } = answer(request);
      res.writeHead(status, answerHeaders).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  endpoint = `http://127.0.0.1:${port}`;
  sqs = track(new SQSClient(clientConfig()));
  s3 = track(new S3Client({ ...clientConfig(), forcePathStyle: true }));
  s3AwsHost = track(new S3Client({ ...awsHostConfig(), forcePathStyle: false }));
  bedrock = track(new BedrockRuntimeClient({ ...clientConfig(), requestHandler: new NodeHttpHandler() }));
  userPools = track(new cognito.CognitoIdentityProviderClient(clientConfig()));
  secrets = track(new SecretsManagerClient(clientConfig()));
});

afterAll(async () => {
  for (const client of clients) client.destroy();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  answer = harmless;
});

const asAwsRequest = (service: AwsService, request: Recorded): AwsHttpRequest => ({
  service,
  ...request,
  region: serviceOfHost(request.host)?.region ?? REGION,
  account: ACCOUNT,
});

/** The one raw request a call sent (its outcome against the harmless answer does not matter). */
const sent = async (service: AwsService, call: () => Promise<unknown>): Promise<AwsHttpRequest> => {
  recorded.length = 0;
  await call().catch(() => undefined);
  expect(recorded).toHaveLength(1);
  return asAwsRequest(service, recorded[0]!);
};

const permissionsOf = async (service: AwsService, call: () => Promise<unknown>, options?: Parameters<typeof requiredPermissions>[1]) =>
  requiredPermissions(await sent(service, call), options);

const queueUrl = () => `${endpoint}/${ACCOUNT}/ias-generation`;

describe('requiredPermissions: SQS (AWS JSON 1.0)', () => {
  test.each([
    ['SendMessage', () => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: '{}' })), 'sqs:SendMessage'],
    ['ReceiveMessage', () => sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl(), MaxNumberOfMessages: 10 })), 'sqs:ReceiveMessage'],
    [
      'DeleteMessageBatch',
      () => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl(), Entries: [{ Id: '1', ReceiptHandle: 'rh' }] })),
      'sqs:DeleteMessage',
    ],
    [
      'GetQueueAttributes',
      () => sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl(), AttributeNames: ['All'] })),
      'sqs:GetQueueAttributes',
    ],
  ])('%s on the twin queue URL', async (_name, call, action) => {
    expect(await permissionsOf('sqs', call)).toEqual([{ action, resource: QUEUE_ARN }]);
  });

  test('a queue URL on AWS names the region and account of the queue', async () => {
    const client = track(new SQSClient(awsHostConfig('eu-west-1')));
    const request = await sent('sqs', () =>
      client.send(new SendMessageCommand({ QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/111122223333/ias-quality', MessageBody: 'x' })),
    );
    expect(request.host).toBe('sqs.eu-west-1.amazonaws.com');
    expect(requiredPermissions(request)).toEqual([
      { action: 'sqs:SendMessage', resource: 'arn:aws:sqs:eu-west-1:111122223333:ias-quality' },
    ]);
  });

  test('ListQueues names no queue', async () => {
    expect(await permissionsOf('sqs', () => sqs.send(new ListQueuesCommand({})))).toEqual([{ action: 'sqs:ListQueues', resource: '*' }]);
  });

  test('a request without an SQS target is an unknown operation', () => {
    const request = asAwsRequest('sqs', {
      method: 'POST',
      host: 'sqs.us-east-1.amazonaws.com',
      path: '/',
      headers: {},
      body: Buffer.from('Action=SendMessage'),
    });
    expect(requiredPermissions(request)).toEqual([{ action: 'sqs:UnknownOperation', resource: '*' }]);
  });
});

describe('requiredPermissions: S3 (REST)', () => {
  const object = (key: string) => `arn:aws:s3:::${BUCKET}/${key}`;

  test.each([
    [
      'GetObject',
      () => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'cases/42/a b+c%.pdf' })),
      [{ action: 's3:GetObject', resource: object('cases/42/a b+c%.pdf') }],
    ],
    [
      'GetObject of a version',
      () => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k', VersionId: 'v1' })),
      [{ action: 's3:GetObjectVersion', resource: object('k') }],
    ],
    [
      'HeadObject',
      () => s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'cases/42/x.pdf' })),
      [{ action: 's3:GetObject', resource: object('cases/42/x.pdf') }],
    ],
    [
      'PutObject',
      () => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/x.txt', Body: 'hello' })),
      [{ action: 's3:PutObject', resource: object('uploads/x.txt') }],
    ],
    [
      'DeleteObject',
      () => s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'x' })),
      [{ action: 's3:DeleteObject', resource: object('x') }],
    ],
    [
      'CopyObject',
      () => s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: 'copy', CopySource: `source-bucket/${encodeURIComponent('a b.txt')}` })),
      [
        { action: 's3:PutObject', resource: object('copy') },
        { action: 's3:GetObject', resource: 'arn:aws:s3:::source-bucket/a b.txt' },
      ],
    ],
    [
      'CreateMultipartUpload',
      () => s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'big' })),
      [{ action: 's3:PutObject', resource: object('big') }],
    ],
    [
      'UploadPart',
      () => s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'big', UploadId: 'u1', PartNumber: 1, Body: 'x' })),
      [{ action: 's3:PutObject', resource: object('big') }],
    ],
    [
      'HeadBucket',
      () => s3.send(new HeadBucketCommand({ Bucket: BUCKET })),
      [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}` }],
    ],
    [
      'ListObjectsV2',
      () => s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'cases/' })),
      [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}` }],
    ],
    [
      'GetBucketLocation',
      () => s3.send(new GetBucketLocationCommand({ Bucket: BUCKET })),
      [{ action: 's3:GetBucketLocation', resource: `arn:aws:s3:::${BUCKET}` }],
    ],
    [
      'an unmodelled subresource (PutObjectTagging)',
      () => s3.send(new PutObjectTaggingCommand({ Bucket: BUCKET, Key: 'x', Tagging: { TagSet: [] } })),
      [{ action: 's3:UnknownOperation', resource: object('x') }],
    ],
  ])('%s, path-style', async (_name, call, permissions) => {
    expect(await permissionsOf('s3', call)).toEqual(permissions);
  });

  test('GetObject and HeadBucket, virtual-hosted on AWS', async () => {
    const get = await sent('s3', () => s3AwsHost.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'cases/a b.pdf' })));
    expect(get.host).toBe(`${BUCKET}.s3.us-east-1.amazonaws.com`);
    expect(requiredPermissions(get)).toEqual([{ action: 's3:GetObject', resource: object('cases/a b.pdf') }]);
    const head = await sent('s3', () => s3AwsHost.send(new HeadBucketCommand({ Bucket: BUCKET })));
    expect(requiredPermissions(head)).toEqual([{ action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}` }]);
  });

  test('a presigned GetObject URL, path-style and virtual-hosted, is GetObject', async () => {
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: 'cases/42/report 1.pdf' }), { expiresIn: 300 });
    const request = await sent('s3', () => fetch(url));
    expect(request.headers.authorization).toBeUndefined();
    expect(requiredPermissions(request)).toEqual([{ action: 's3:GetObject', resource: object('cases/42/report 1.pdf') }]);

    const awsUrl = new URL(await getSignedUrl(s3AwsHost, new GetObjectCommand({ Bucket: BUCKET, Key: 'k.pdf' }), { expiresIn: 300 }));
    const virtual = asAwsRequest('s3', {
      method: 'GET',
      host: awsUrl.host,
      path: awsUrl.pathname + awsUrl.search,
      headers: {},
      body: Buffer.alloc(0),
    });
    expect(requiredPermissions(virtual)).toEqual([{ action: 's3:GetObject', resource: object('k.pdf') }]);
  });

  test('GET of the service endpoint is ListAllMyBuckets', () => {
    const request = asAwsRequest('s3', {
      method: 'GET',
      host: 's3.us-east-1.amazonaws.com',
      path: '/',
      headers: {},
      body: Buffer.alloc(0),
    });
    expect(requiredPermissions(request)).toEqual([{ action: 's3:ListAllMyBuckets', resource: '*' }]);
  });
});

describe('requiredPermissions: Bedrock Runtime (REST-JSON)', () => {
  const messages = [{ role: 'user' as const, content: [{ text: 'hello' }] }];

  test.each([
    [
      'Converse, foundation model',
      () => bedrock.send(new ConverseCommand({ modelId: MODEL, messages })),
      [{ action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN }],
    ],
    [
      'InvokeModel, foundation model',
      () => bedrock.send(new InvokeModelCommand({ modelId: 'amazon.titan-embed-text-v2:0', body: '{}' })),
      [{ action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${REGION}::foundation-model/amazon.titan-embed-text-v2:0` }],
    ],
    [
      'Converse, inference profile',
      () => bedrock.send(new ConverseCommand({ modelId: PROFILE, messages })),
      [
        { action: 'bedrock:InvokeModel', resource: PROFILE_ARN },
        { action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN },
      ],
    ],
    [
      'InvokeModel, inference profile',
      () => bedrock.send(new InvokeModelCommand({ modelId: `eu.${MODEL}`, body: '{}' })),
      [
        { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/eu.${MODEL}` },
        { action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN },
      ],
    ],
    [
      'InvokeModel, inference profile ARN',
      () => bedrock.send(new InvokeModelCommand({ modelId: PROFILE_ARN, body: '{}' })),
      [
        { action: 'bedrock:InvokeModel', resource: PROFILE_ARN },
        { action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN },
      ],
    ],
    [
      'Converse, foundation model ARN',
      () => bedrock.send(new ConverseCommand({ modelId: FOUNDATION_MODEL_ARN, messages })),
      [{ action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN }],
    ],
    // a global profile also needs the region-less foundation-model ARN AWS documents for global routing
    [
      'ConverseStream, global inference profile',
      () => bedrock.send(new ConverseStreamCommand({ modelId: `global.${MODEL}`, messages })),
      [
        {
          action: 'bedrock:InvokeModelWithResponseStream',
          resource: `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/global.${MODEL}`,
        },
        { action: 'bedrock:InvokeModelWithResponseStream', resource: FOUNDATION_MODEL_ARN },
        { action: 'bedrock:InvokeModelWithResponseStream', resource: `arn:aws:bedrock:::foundation-model/${MODEL}` },
      ],
    ],
    [
      'Converse, global inference profile ARN',
      () =>
        bedrock.send(new ConverseCommand({ modelId: `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/global.${MODEL}`, messages })),
      [
        { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/global.${MODEL}` },
        { action: 'bedrock:InvokeModel', resource: FOUNDATION_MODEL_ARN },
        { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:::foundation-model/${MODEL}` },
      ],
    ],
    [
      'Converse, an unknown prefix is a foundation model id (AWS then finds no model)',
      () => bedrock.send(new ConverseCommand({ modelId: `xx.${MODEL}`, messages })),
      [{ action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${REGION}::foundation-model/xx.${MODEL}` }],
    ],
    [
      'InvokeModelWithResponseStream',
      () => bedrock.send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, body: '{}' })),
      [{ action: 'bedrock:InvokeModelWithResponseStream', resource: FOUNDATION_MODEL_ARN }],
    ],
    [
      'an unmodelled operation (ApplyGuardrail)',
      () => bedrock.send(new ApplyGuardrailCommand({ guardrailIdentifier: 'g', guardrailVersion: '1', source: 'INPUT', content: [] })),
      [{ action: 'bedrock:UnknownOperation', resource: '*' }],
    ],
  ])('%s', async (_name, call, permissions) => {
    expect(await permissionsOf('bedrock-runtime', call)).toEqual(permissions);
  });

  test("a geographic profile's foundation model is checked in the destination region the request is routed to", () => {
    const request = asAwsRequest('bedrock-runtime', {
      method: 'POST',
      host: 'bedrock-runtime.us-east-1.amazonaws.com',
      path: `/model/${encodeURIComponent(PROFILE)}/converse`,
      headers: {},
      body: Buffer.from('{}'),
    });
    const offered: (readonly string[])[] = [];
    const routed = requiredPermissions(request, {
      destinationRegion: (destinations) => {
        offered.push(destinations);
        return 'us-east-2';
      },
    });
    expect(offered).toEqual([['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2']]);
    expect(routed).toEqual([
      { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:us-east-1:${ACCOUNT}:inference-profile/${PROFILE}` },
      { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:us-east-2::foundation-model/${MODEL}` },
    ]);
  });

  test('without a router, the region of the call is the region of the foundation model checked', () => {
    const request = asAwsRequest('bedrock-runtime', {
      method: 'POST',
      host: 'bedrock-runtime.us-west-2.amazonaws.com',
      path: `/model/${encodeURIComponent(PROFILE)}/converse`,
      headers: {},
      body: Buffer.from('{}'),
    });
    expect(requiredPermissions(request)).toEqual([
      { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:us-west-2:${ACCOUNT}:inference-profile/${PROFILE}` },
      { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:us-west-2::foundation-model/${MODEL}` },
    ]);
  });
});

describe('requiredPermissions: Cognito user pools (AWS JSON 1.1)', () => {
  test('AdminInitiateAuth needs IAM on the user pool', async () => {
    const call = () =>
      userPools.send(new cognito.AdminInitiateAuthCommand({ UserPoolId: POOL, ClientId: 'client', AuthFlow: 'ADMIN_USER_PASSWORD_AUTH' }));
    expect(await permissionsOf('cognito-idp', call)).toEqual([
      { action: 'cognito-idp:AdminInitiateAuth', resource: `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${POOL}` },
    ]);
  });

  test('ForgotPassword is served without IAM (and the client sends it unsigned)', async () => {
    const request = await sent('cognito-idp', () =>
      userPools.send(new cognito.ForgotPasswordCommand({ ClientId: 'client', Username: 'u@example.com' })),
    );
    expect(requiredPermissions(request)).toBe('unauthenticated');
    expect(signingAccessKey(request)).toBeUndefined();
  });

  test('the unauthenticated operations are exactly those the client model marks noAuth', () => {
    const operations = Object.keys(cognito)
      .filter((name) => name.endsWith('Command') && name !== 'Command')
      .map((name) => name.slice(0, -'Command'.length));
    const noAuth = operations.filter((operation) =>
      userPools.config.httpAuthSchemeProvider({ operation, region: REGION }).every((option) => option.schemeId === 'smithy.api#noAuth'),
    );
    expect(operations.length).toBeGreaterThan(100);
    expect(noAuth.sort()).toEqual([...COGNITO_UNAUTHENTICATED_OPERATIONS].sort());
  });

  test.each(['jwks.json', 'openid-configuration'])('GET /<pool>/.well-known/%s is public', (document) => {
    const request = asAwsRequest('cognito-idp', {
      method: 'GET',
      host: `cognito-idp.${REGION}.amazonaws.com`,
      path: `/${POOL}/.well-known/${document}`,
      headers: {},
      body: Buffer.alloc(0),
    });
    expect(requiredPermissions(request)).toBe('unauthenticated');
  });

  test('an operation naming no pool is checked on `*`', async () => {
    expect(await permissionsOf('cognito-idp', () => userPools.send(new cognito.ListUserPoolsCommand({ MaxResults: 10 })))).toEqual([
      { action: 'cognito-idp:ListUserPools', resource: '*' },
    ]);
  });
});

describe('requiredPermissions: Secrets Manager (AWS JSON 1.1)', () => {
  const SECRET_ARN = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:ias/cron-secret-AbCdEf`;

  test('GetSecretValue by ARN is checked on that ARN', async () => {
    expect(await permissionsOf('secretsmanager', () => secrets.send(new GetSecretValueCommand({ SecretId: SECRET_ARN })))).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: SECRET_ARN },
    ]);
  });

  test('GetSecretValue by name is checked on the ARN of the secret of that name', async () => {
    const call = () => secrets.send(new GetSecretValueCommand({ SecretId: 'ias/cron-secret' }));
    const secretArnOf = (name: string) => (name === 'ias/cron-secret' ? SECRET_ARN : undefined);
    expect(await permissionsOf('secretsmanager', call, { secretArnOf })).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: SECRET_ARN },
    ]);
    // no such secret: the ARN the name would have without AWS's random suffix
    expect(await permissionsOf('secretsmanager', call, { secretArnOf: () => undefined })).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:ias/cron-secret` },
    ]);
  });
});

describe("requiredPermissions: what npm run preflight reads (Bedrock's control plane, Lambda, SES v2, Systems Manager)", () => {
  const config = () => ({ ...clientConfig(), requestHandler: new NodeHttpHandler() });

  test('each read is the action of its operation, on its resource', async () => {
    const control = track(new BedrockClient(config()));
    const lambda = track(new LambdaClient(config()));
    const ses = track(new SESv2Client(config()));
    const ssm = track(new SSMClient(config()));
    expect(
      await permissionsOf('bedrock', () => control.send(new GetFoundationModelAvailabilityCommand({ modelId: 'cohere.embed-english-v3' }))),
    ).toEqual([{ action: 'bedrock:GetFoundationModelAvailability', resource: '*' }]);
    expect(
      await permissionsOf('bedrock', () => control.send(new GetInferenceProfileCommand({ inferenceProfileIdentifier: PROFILE }))),
    ).toEqual([{ action: 'bedrock:GetInferenceProfile', resource: `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/${PROFILE}` }]);
    expect(await permissionsOf('lambda', () => lambda.send(new GetAccountSettingsCommand({})))).toEqual([
      { action: 'lambda:GetAccountSettings', resource: '*' },
    ]);
    expect(await permissionsOf('email', () => ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'example.com' })))).toEqual([
      { action: 'ses:GetEmailIdentity', resource: `arn:aws:ses:${REGION}:${ACCOUNT}:identity/example.com` },
    ]);
    expect(await permissionsOf('email', () => ses.send(new GetAccountCommand({})))).toEqual([{ action: 'ses:GetAccount', resource: '*' }]);
    const name = '/cdk-bootstrap/hnb659fds/version';
    expect(await permissionsOf('ssm', () => ssm.send(new GetParameterCommand({ Name: name })))).toEqual([
      { action: 'ssm:GetParameter', resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter${name}` },
    ]);
  });

  test('a refusal is the AccessDeniedException each client throws', async () => {
    for (const [service, call] of [
      ['bedrock', () => track(new BedrockClient(config())).send(new GetFoundationModelAvailabilityCommand({ modelId: 'm' }))],
      ['email', () => track(new SESv2Client(config())).send(new GetAccountCommand({}))],
      ['ssm', () => track(new SSMClient(config())).send(new GetParameterCommand({ Name: '/p' }))],
    ] as const) {
      answer = (recordedRequest) => {
        const request = asAwsRequest(service, recordedRequest);
        return accessDenied(request, {
          principalArn: PRINCIPAL,
          ...(requiredPermissions(request) as RequiredPermission[])[0]!,
          reason: 'no-allow',
        });
      };
      const error = (await call().catch((e: unknown) => e)) as Error;
      expect([service, error.name]).toEqual([service, 'AccessDeniedException']);
      expect(error.message).toContain(`User: ${PRINCIPAL} is not authorized to perform:`);
    }
  });
});

describe('signingAccessKey', () => {
  test('reads the access key of a header-signed request', async () => {
    const request = await sent('sqs', () => sqs.send(new ListQueuesCommand({})));
    expect(request.headers.authorization).toContain(`Credential=${ACCESS_KEY}/`);
    expect(signingAccessKey(request)).toBe(ACCESS_KEY);
  });

  test('reads the access key of a presigned URL', async () => {
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: 'k' }), { expiresIn: 60 });
    expect(signingAccessKey(await sent('s3', () => fetch(url)))).toBe(ACCESS_KEY);
  });

  test('an unsigned request has none', () => {
    expect(
      signingAccessKey(asAwsRequest('s3', { method: 'GET', host: 'x', path: '/b/k?x-id=GetObject', headers: {}, body: Buffer.alloc(0) })),
    ).toBeUndefined();
  });
});

describe('serviceOfHost', () => {
  test.each([
    ['sqs.us-east-1.amazonaws.com', { service: 'sqs', region: 'us-east-1' }],
    ['eu-west-1.queue.amazonaws.com', { service: 'sqs', region: 'eu-west-1' }],
    ['s3.amazonaws.com', { service: 's3', region: 'us-east-1' }],
    ['s3.eu-central-1.amazonaws.com', { service: 's3', region: 'eu-central-1' }],
    ['ias-files.s3.amazonaws.com', { service: 's3', region: 'us-east-1' }],
    ['ias-files.s3.us-west-2.amazonaws.com:443', { service: 's3', region: 'us-west-2' }],
    ['my.dotted.bucket.s3.dualstack.ap-southeast-2.amazonaws.com', { service: 's3', region: 'ap-southeast-2' }],
    ['ias-files.s3-us-gov-west-1.amazonaws.com', { service: 's3', region: 'us-gov-west-1' }],
    ['bedrock-runtime.us-west-2.amazonaws.com', { service: 'bedrock-runtime', region: 'us-west-2' }],
    ['bedrock-runtime-fips.us-east-1.amazonaws.com', { service: 'bedrock-runtime', region: 'us-east-1' }],
    ['cognito-idp.eu-west-2.amazonaws.com', { service: 'cognito-idp', region: 'eu-west-2' }],
    ['secretsmanager.us-east-1.amazonaws.com', { service: 'secretsmanager', region: 'us-east-1' }],
    ['SQS.US-EAST-1.AMAZONAWS.COM', { service: 'sqs', region: 'us-east-1' }],
    ['127.0.0.1:4566', undefined],
    ['bedrock.us-east-1.amazonaws.com', { service: 'bedrock', region: 'us-east-1' }],
    ['email.eu-west-1.amazonaws.com', { service: 'email', region: 'eu-west-1' }],
    ['ssm.us-west-2.amazonaws.com', { service: 'ssm', region: 'us-west-2' }],
    ['bedrock-agent.us-east-1.amazonaws.com', undefined],
    ['lambda.us-east-1.amazonaws.com', { service: 'lambda', region: 'us-east-1' }],
    ['lambda-fips.us-east-1.amazonaws.com', undefined],
    ['example.com', undefined],
  ])('%s', (host, expected) => {
    expect(serviceOfHost(host)).toEqual(expected);
  });
});

describe('accessDenied: what the real clients throw', () => {
  /** Answers every request with the denial of its first required permission. */
  const denyWith = (service: AwsService, reason: 'explicit-deny' | 'no-allow' = 'no-allow') => {
    answer = (recordedRequest) => {
      const request = asAwsRequest(service, recordedRequest);
      const permissions = requiredPermissions(request) as RequiredPermission[];
      return accessDenied(request, { principalArn: PRINCIPAL, ...permissions[0]!, reason });
    };
  };
  const thrown = async (call: () => Promise<unknown>): Promise<Error & { $metadata: { httpStatusCode?: number; requestId?: string } }> => {
    const error: unknown = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error & { $metadata: { httpStatusCode?: number; requestId?: string } };
  };

  test('S3: AccessDenied, the resource quoted in the message', async () => {
    denyWith('s3');
    const error = await thrown(() => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'cases/a&b.pdf' })));
    expect(error.name).toBe('AccessDenied');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::${BUCKET}/cases/a&b.pdf" ` +
        'because no identity-based policy allows the s3:GetObject action',
    );
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.$metadata.requestId).toMatch(/^[0-9A-F]{16}$/);
  });

  test('S3 HEAD: 403 without a body, so the client knows no more than it does from AWS', async () => {
    denyWith('s3');
    const error = await thrown(() => s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'k' })));
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.name).toBe('Unknown');
  });

  test('SQS: AccessDenied from the query-compatible header, the action lower-case as AWS writes it', async () => {
    denyWith('sqs');
    const error = await thrown(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: '{}' })));
    expect(error.name).toBe('AccessDenied');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: sqs:sendmessage on resource: ${QUEUE_ARN} because no identity-based policy allows the sqs:sendmessage action`,
    );
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.$metadata.requestId).toBeDefined();
  });

  test('SQS explicit deny', async () => {
    denyWith('sqs', 'explicit-deny');
    const error = await thrown(() =>
      sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl(), Entries: [{ Id: '1', ReceiptHandle: 'rh' }] })),
    );
    expect(error.name).toBe('AccessDenied');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: sqs:deletemessage on resource: ${QUEUE_ARN} with an explicit deny in an identity-based policy`,
    );
  });

  test('Bedrock: AccessDeniedException', async () => {
    denyWith('bedrock-runtime');
    const error = await thrown(() =>
      bedrock.send(new ConverseCommand({ modelId: PROFILE, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })),
    );
    expect(error.name).toBe('AccessDeniedException');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: bedrock:InvokeModel on resource: ${PROFILE_ARN} because no identity-based policy allows the bedrock:InvokeModel action`,
    );
    expect(error.$metadata.httpStatusCode).toBe(403);
  });

  test('Cognito: AccessDeniedException', async () => {
    denyWith('cognito-idp', 'explicit-deny');
    const error = await thrown(() =>
      userPools.send(new cognito.AdminInitiateAuthCommand({ UserPoolId: POOL, ClientId: 'c', AuthFlow: 'ADMIN_USER_PASSWORD_AUTH' })),
    );
    expect(error.name).toBe('AccessDeniedException');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: cognito-idp:AdminInitiateAuth on resource: arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${POOL} ` +
        'with an explicit deny in an identity-based policy',
    );
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  test('Secrets Manager: AccessDeniedException, its message capitalised', async () => {
    denyWith('secretsmanager');
    const secretArn = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:ias/webhook-secret-AbCdEf`;
    const error = await thrown(() => secrets.send(new GetSecretValueCommand({ SecretId: secretArn })));
    expect(error.name).toBe('AccessDeniedException');
    expect(error.message).toBe(
      `User: ${PRINCIPAL} is not authorized to perform: secretsmanager:GetSecretValue on resource: ${secretArn} because no identity-based policy allows the secretsmanager:GetSecretValue action`,
    );
    expect(error.$metadata.httpStatusCode).toBe(400);
    const body = JSON.parse(
      accessDenied(asAwsRequest('secretsmanager', recorded[0]!), {
        principalArn: PRINCIPAL,
        action: 'a',
        resource: 'r',
        reason: 'no-allow',
      }).body,
    ) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['__type', 'Message']);
  });

  test('the answer is a pure function of the request', async () => {
    const request = await sent('s3', () => s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' })));
    const denial = { principalArn: PRINCIPAL, action: 's3:GetObject', resource: `arn:aws:s3:::${BUCKET}/k`, reason: 'no-allow' as const };
    expect(accessDenied(request, denial)).toEqual(accessDenied(request, denial));
  });
});
