/**
 * The one table from a manifest `Resource` to what a function that `uses` it gets: its environment
 * variables and its IAM grant. Nothing else grants a service function anything (the SQS event source
 * adds consume rights for a worker's own queue; a scheduled function may send its failed runs to the
 * schedules' failure queue: service-function.ts), so a function's permissions read off its manifest entry.
 */
import { Aws } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as rds from 'aws-cdk-lib/aws-rds';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { invocationResources } from '#core/ai/models';
import { AI_MODEL_ENV, ENV, FILE_PREFIXES, QUEUE_URL_ENV, type AiModels } from '#manifest/runtime-names';
import { queues as queueSpecs, type QueueName, type Resource } from '#manifest';
import type { StageConfig } from '../stage-config';
import { deadLetterQueueName, queueArnOf, queueName, queueUrlOf } from './names';
import { acknowledgeMatching } from './nag';

export interface DatabaseResources {
  vpc: ec2.IVpc;
  /** requires TLS and IAM authentication; only it reads the database secret */
  proxy: rds.IDatabaseProxy;
  name: string;
  /** the database user the proxy's secret holds: functions connect as it with IAM auth tokens */
  user: string;
  /** security group of the functions that use the database; the proxy admits it */
  clients: ec2.ISecurityGroup;
}

export interface IdentityResources {
  userPool: cognito.IUserPool;
  client: cognito.IUserPoolClient;
  /** JWT issuer of the pool's tokens (https://cognito-idp.<region>.amazonaws.com/<pool id>) */
  issuer: string;
}

/** A manifest queue as a function sees it: from its fixed name (names.ts), in whichever stack the function is. */
export interface ServiceQueue {
  queueUrl: string;
  queueArn: string;
  deadLetterQueueArn: string;
}

export const serviceQueues = (scope: Construct, prefix: string): Record<QueueName, ServiceQueue> =>
  Object.fromEntries(
    (Object.keys(queueSpecs) as QueueName[]).map((name) => [
      name,
      {
        queueUrl: queueUrlOf(queueName(prefix, name)),
        queueArn: queueArnOf(scope, queueName(prefix, name)),
        deadLetterQueueArn: queueArnOf(scope, deadLetterQueueName(prefix, name)),
      },
    ]),
  ) as Record<QueueName, ServiceQueue>;

/** Everything a service function can be bound to. */
export interface ServiceResources {
  database: DatabaseResources;
  filesBucket: s3.IBucket;
  cronSecret: secretsmanager.ISecret;
  webhookSecret: secretsmanager.ISecret;
  identity: IdentityResources;
  queues: Record<QueueName, ServiceQueue>;
  ai: StageConfig['ai'];
}

export type Grantee = iam.IGrantable & IConstruct;

export interface Binding {
  env: (r: ServiceResources) => Record<string, string>;
  grant: (r: ServiceResources, grantee: Grantee) => void;
}

const allow = (grantee: Grantee, actions: string[], resourceArns: string[]) => iam.Grant.addToPrincipal({ grantee, actions, resourceArns });

// Grants name the actions the code calls and nothing more (CDK's grantSendMessages and grantRead add
// GetQueueAttributes/GetQueueUrl and DescribeSecret, which no function calls: `npm run iam-report`).
const queue = (name: QueueName): Binding => ({
  env: (r) => ({ [QUEUE_URL_ENV[name]]: r.queues[name].queueUrl }),
  grant: (r, fn) => allow(fn, ['sqs:SendMessage'], [r.queues[name].queueArn]),
});

/** Every queue's URL (queue stats and health read each one's attributes). */
const allQueueUrls = ({ queues }: ServiceResources): Record<string, string> =>
  Object.fromEntries((Object.keys(queues) as QueueName[]).map((name) => [QUEUE_URL_ENV[name], queues[name].queueUrl]));

const filesBucketEnv = ({ filesBucket }: ServiceResources) => ({ [ENV.filesBucket]: filesBucket.bucketName });

/** One S3 object action under one key prefix of the files bucket (keys are per organization, item and file: unknown at deploy time). */
const objectsUnder = (action: string, prefix: string, why: string): Binding => ({
  env: filesBucketEnv,
  grant: ({ filesBucket }, fn) => {
    allow(fn, [action], [filesBucket.arnForObjects(`${prefix}*`)]);
    acknowledgeMatching(fn, new RegExp(`^AwsSolutions-IAM5\\[Resource::.*/${prefix.replace('/', '')}/\\*\\]$`), why);
  },
});

const readSecret = (fn: Grantee, secret: secretsmanager.ISecret) => allow(fn, ['secretsmanager:GetSecretValue'], [secret.secretArn]);

const secret = (pick: (r: ServiceResources) => secretsmanager.ISecret, arnVar: string): Binding => ({
  env: (r) => ({ [arnVar]: pick(r).secretArn }),
  grant: (r, fn) => readSecret(fn, pick(r)),
});

/**
 * The ARNs InvokeModel must allow to call a model id from `region` (Converse is authorised as
 * InvokeModel): a foundation model in that region; an inference profile (as called there) and its
 * foundation model in every region it routes to; a global profile's model also region-less, the ARN
 * AWS documents for global routing.
 */
const bedrockModelArns = (id: string, region: string): string[] => {
  const { profile, model, foundationModelRegions, regionlessFoundationModel } = invocationResources(id, region);
  return [
    ...(profile ? [`arn:${Aws.PARTITION}:bedrock:${region}:${Aws.ACCOUNT_ID}:inference-profile/${profile}`] : []),
    ...foundationModelRegions.map((r) => `arn:${Aws.PARTITION}:bedrock:${r}::foundation-model/${model}`),
    ...(regionlessFoundationModel ? [`arn:${Aws.PARTITION}:bedrock:::foundation-model/${model}`] : []),
  ];
};

/**
 * The action calling a purpose's model takes: the text models answer through ConverseStream (ai/gateway.ts), which
 * IAM authorizes as bedrock:InvokeModelWithResponseStream; Cohere Embed through InvokeModel.
 */
const BEDROCK_ACTION: Record<Exclude<keyof AiModels, 'judge'>, string> = {
  analysis: 'bedrock:InvokeModelWithResponseStream',
  quality: 'bedrock:InvokeModelWithResponseStream',
  embedding: 'bedrock:InvokeModel',
};

/** One pinned model in both AI regions: its env var, and the action calling it takes on what either region needs. */
const bedrock = (purpose: Exclude<keyof AiModels, 'judge'>): Binding => ({
  env: ({ ai }) => ({
    [ENV.aiPrimaryRegion]: ai.primaryRegion,
    [ENV.aiFallbackRegion]: ai.fallbackRegion,
    [AI_MODEL_ENV[purpose]]: ai.models[purpose],
    // only when the stage overrides the code's attempt timeouts (ai/timeouts.ts)
    ...(ai.attemptTimeoutMs !== undefined && { [ENV.aiAttemptTimeoutMs]: ai.attemptTimeoutMs }),
  }),
  grant: ({ ai }, fn) =>
    allow(
      fn,
      [BEDROCK_ACTION[purpose]],
      [...new Set([ai.primaryRegion, ai.fallbackRegion].flatMap((region) => bedrockModelArns(ai.models[purpose], region)))],
    ),
});

const userPoolEnv = ({ identity }: ServiceResources) => ({
  [ENV.userPoolId]: identity.userPool.userPoolId,
  [ENV.userPoolClientId]: identity.client.userPoolClientId,
});

/** What layers/core/db/connection.ts reads to reach the database through the proxy. */
export const databaseEnv = (database: DatabaseResources): Record<string, string> => ({
  [ENV.dbHost]: database.proxy.endpoint,
  [ENV.dbName]: database.name,
  [ENV.dbUser]: database.user,
});

/**
 * IAM database authentication through the proxy as its one user, and nothing else: rds-db:connect on
 * arn:aws:rds-db:<region>:<account>:dbuser:<proxy resource id>/<user>. No read of the database secret.
 */
export const grantDatabaseConnect = (fn: Grantee, database: DatabaseResources) => database.proxy.grantConnect(fn, database.user);

export const BINDINGS: Record<Resource, Binding> = {
  // network access to the proxy comes with the VPC placement (service-function.ts)
  database: {
    env: ({ database }) => databaseEnv(database),
    grant: ({ database }, fn) => grantDatabaseConnect(fn, database),
  },
  filesBucket: {
    env: ({ filesBucket }) => ({ [ENV.filesBucket]: filesBucket.bucketName }),
    grant: ({ filesBucket }, fn) => {
      // read only: files arrive with an investigation's evidence, written by the seed loader alone (seedImports)
      allow(fn, ['s3:GetObject'], [filesBucket.arnForObjects('*')]);
      acknowledgeMatching(
        fn,
        /^AwsSolutions-IAM5\[Resource::.*\/\*\]$/,
        'Object keys of the files bucket (per investigation and document) are not known at deploy time; the grant is object read in this one bucket.',
      );
      // HeadBucket (health) and 404-instead-of-403 for missing keys
      allow(fn, ['s3:ListBucket'], [filesBucket.bucketArn]);
    },
  },
  seedImports: {
    env: filesBucketEnv,
    grant: ({ filesBucket }, fn) => {
      // the presigned upload is signed by this role (PutObject), then read back (GetObject); each investigation's
      // evidence goes on as a bulk import, written under imports/ (the import worker takes it from there)
      allow(fn, ['s3:PutObject', 's3:GetObject'], [filesBucket.arnForObjects(`${FILE_PREFIXES.seeds}*`)]);
      allow(fn, ['s3:PutObject'], [filesBucket.arnForObjects(`${FILE_PREFIXES.imports}*`)]);
      acknowledgeMatching(
        fn,
        /^AwsSolutions-IAM5\[Resource::.*\/(seeds|imports)\/\*\]$/,
        "A seed file's key is a fresh UUID under seeds/, and the imports it starts get keys per import under imports/: both unknown at deploy time.",
      );
    },
  },
  generationQueue: queue('generation'),
  qualityQueue: queue('quality'),
  ingestionQueue: queue('ingestion'),
  importsQueue: queue('imports'),
  embeddingQueue: queue('embedding'),
  // a presigned URL carries the permissions of the role that signed it: PutObject of that one key, under org/
  fileUploads: objectsUnder(
    's3:PutObject',
    FILE_PREFIXES.evidence,
    'Evidence files get keys per organization, investigation and file under org/, unknown at deploy time; the grant is object writes under that prefix, each upload URL naming one key.',
  ),
  importUploads: objectsUnder(
    's3:PutObject',
    FILE_PREFIXES.imports,
    'A bulk import file gets a key per import under imports/, unknown at deploy time; the grant is object writes under that prefix, each upload URL naming one key.',
  ),
  fileDeletes: objectsUnder(
    's3:DeleteObject',
    FILE_PREFIXES.evidence,
    "A deleted evidence item's or background document's files have keys under org/ known only at run time.",
  ),
  // the health check reads the analysis queues only (layers/core/health.ts)
  queueHealth: {
    env: ({ queues }) => ({
      [QUEUE_URL_ENV.generation]: queues.generation.queueUrl,
      [QUEUE_URL_ENV.quality]: queues.quality.queueUrl,
    }),
    grant: ({ queues }, fn) => allow(fn, ['sqs:GetQueueAttributes'], [queues.generation.queueArn, queues.quality.queueArn]),
  },
  filesBucketHealth: {
    env: ({ filesBucket }) => ({ [ENV.filesBucket]: filesBucket.bucketName }),
    // HeadBucket is authorised as s3:ListBucket
    grant: ({ filesBucket }, fn) => allow(fn, ['s3:ListBucket'], [filesBucket.bucketArn]),
  },
  queueStats: {
    env: (r) => ({
      ...allQueueUrls(r),
      [ENV.aiPrimaryRegion]: r.ai.primaryRegion,
      [ENV.aiFallbackRegion]: r.ai.fallbackRegion,
    }),
    // attributes only (depths, redrive policy): no send, receive or delete
    grant: ({ queues }, fn) =>
      allow(
        fn,
        ['sqs:GetQueueAttributes'],
        Object.values(queues).flatMap((q) => [q.queueArn, q.deadLetterQueueArn]),
      ),
  },
  bedrockAnalysis: bedrock('analysis'),
  bedrockQuality: bedrock('quality'),
  bedrockEmbedding: bedrock('embedding'),
  cronSecret: secret((r) => r.cronSecret, ENV.cronSecretArn),
  webhookSecret: secret((r) => r.webhookSecret, ENV.webhookSecretArn),
  // Cognito's public API (ForgotPassword, ConfirmForgotPassword, the software-token calls) needs no IAM
  userPool: { env: userPoolEnv, grant: () => undefined },
  userPoolInitiateAuth: { env: userPoolEnv, grant: ({ identity }, fn) => identity.userPool.grant(fn, 'cognito-idp:AdminInitiateAuth') },
  userPoolRespondToChallenge: {
    env: userPoolEnv,
    grant: ({ identity }, fn) => identity.userPool.grant(fn, 'cognito-idp:AdminRespondToAuthChallenge'),
  },
  userPoolAdmin: {
    env: userPoolEnv,
    grant: ({ identity }, fn) =>
      identity.userPool.grant(fn, 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminDeleteUser'),
  },
};
