/**
 * CDK assertions over the app bin/app.ts deploys (buildApp), with bundling skipped. The expectations
 * are derived from the service manifest, so a manifest change is checked without touching this file.
 * The dev app is synthesized here (its constructs are asserted too); the prod stage's templates are read
 * from test/support/synth.ts, which synthesizes each stage once per run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ENV } from '#core/config';
import {
  functionFacts,
  functions,
  httpRoutes,
  queues,
  visibilityTimeoutSeconds,
  type FunctionSpec,
  type QueueName,
  type Resource,
} from '#manifest';
import { buildApp, type ServiceApp } from '../../lib/stacks';
import { ROUTE_THROTTLES, routeThrottle } from '../../lib/stacks/api-stack';
import { IdentityStack } from '../../lib/stacks/identity-stack';
import { MIGRATE_FUNCTION_ID } from '../../lib/stacks/migrations';
import { functionArnOf, queueArnOf } from '../../lib/stacks/names';
import { NagChecks } from '../../lib/stacks/nag';
import { functionName } from '../../lib/stacks/service-function';
import { stageConfig } from '../../lib/stage-config';
import { DEFAULT_AI_MODELS } from '#core/config';
import { parseModelId } from '#core/ai/models';
import { appOutdir, newApp as newCdkApp } from '../support/cdk-app';
import { CERTIFICATE, resourcesOfType, sharedRef, synthesized } from '../support/synth';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// CloudFormation validation of each stage runs once per run in test/support/synth-stages.ts (asserted below)
/** The SES identity the prod stage sends the user pool's e-mail from (context sesFromEmail, sesRegion). */
const PROD_EMAIL = { sesFromEmail: 'no-reply@example.com', sesRegion: 'us-east-1' };
const newApp = (context: Json = {}) => newCdkApp(context, { cloudFormationValidation: false });

const ALL_QUEUE_URLS = [ENV.generationQueueUrl, ENV.qualityQueueUrl, ENV.ingestionQueueUrl, ENV.importsQueueUrl, ENV.embeddingQueueUrl];

/** What each resource must put in a function's environment (written out, not read from the stacks). */
const EXPECTED_ENV: Record<Resource, string[]> = {
  database: [ENV.dbHost, ENV.dbName, ENV.dbUser],
  filesBucket: [ENV.filesBucket],
  generationQueue: [ENV.generationQueueUrl],
  qualityQueue: [ENV.qualityQueueUrl],
  ingestionQueue: [ENV.ingestionQueueUrl],
  importsQueue: [ENV.importsQueueUrl],
  embeddingQueue: [ENV.embeddingQueueUrl],
  fileUploads: [ENV.filesBucket],
  importUploads: [ENV.filesBucket],
  fileDeletes: [ENV.filesBucket],
  queueStats: [...ALL_QUEUE_URLS, ENV.aiPrimaryRegion, ENV.aiFallbackRegion],
  queueHealth: [ENV.generationQueueUrl, ENV.qualityQueueUrl],
  filesBucketHealth: [ENV.filesBucket],
  bedrockAnalysis: [ENV.aiPrimaryRegion, ENV.aiFallbackRegion, 'AI_MODEL_ANALYSIS'],
  bedrockQuality: [ENV.aiPrimaryRegion, ENV.aiFallbackRegion, 'AI_MODEL_QUALITY'],
  bedrockEmbedding: [ENV.aiPrimaryRegion, ENV.aiFallbackRegion, 'AI_MODEL_EMBEDDING'],
  cronSecret: [ENV.cronSecretArn],
  webhookSecret: [ENV.webhookSecretArn],
  userPool: [ENV.userPoolId, ENV.userPoolClientId],
  userPoolInitiateAuth: [ENV.userPoolId, ENV.userPoolClientId],
  userPoolRespondToChallenge: [ENV.userPoolId, ENV.userPoolClientId],
  userPoolAdmin: [ENV.userPoolId, ENV.userPoolClientId],
  seedImports: [ENV.filesBucket],
};
const BASE_ENV = [ENV.functionId, 'POWERTOOLS_SERVICE_NAME'];
/** Cron routes accept an admin token: only their functions verify one, so only they get the pool's issuer. */
const TOKEN_ENV = [ENV.jwtIssuer, ENV.jwtAudience];

/** The IAM services a resource may add to a function's policy. */
const EXPECTED_SERVICES: Record<Resource, string[]> = {
  database: ['rds-db'],
  filesBucket: ['s3'],
  generationQueue: ['sqs'],
  qualityQueue: ['sqs'],
  ingestionQueue: ['sqs'],
  importsQueue: ['sqs'],
  embeddingQueue: ['sqs'],
  fileUploads: ['s3'],
  importUploads: ['s3'],
  fileDeletes: ['s3'],
  queueStats: ['sqs'],
  queueHealth: ['sqs'],
  filesBucketHealth: ['s3'],
  bedrockAnalysis: ['bedrock'],
  bedrockQuality: ['bedrock'],
  bedrockEmbedding: ['bedrock'],
  cronSecret: ['secretsmanager'],
  webhookSecret: ['secretsmanager'],
  userPool: [],
  userPoolInitiateAuth: ['cognito-idp'],
  userPoolRespondToChallenge: ['cognito-idp'],
  userPoolAdmin: ['cognito-idp'],
  seedImports: ['s3'],
};

const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const isWorker = (fn: FunctionSpec) => fn.triggers.some((t) => t.kind === 'queue');

interface Deployed {
  stack: Stack;
  logicalId: string;
  props: Json;
  statements: Json[];
  managedPolicies: string[];
  logGroup: Json;
}

/** Every function of the app's stacks (the data stack's migrate function too), keyed by FUNCTION_ID. */
const deployedFunctions = (service: ServiceApp): Map<string, Deployed> => {
  const found = new Map<string, Deployed>();
  for (const stack of [service.data, service.identity, service.api, service.workers]) {
    const template = Template.fromStack(stack);
    const resources = template.toJSON().Resources as Record<string, Json>;
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    for (const [logicalId, resource] of Object.entries(template.findResources('AWS::Lambda::Function'))) {
      const props = resource.Properties as Json;
      const id = props.Environment?.Variables?.[ENV.functionId] as string | undefined;
      if (!id) continue; // CDK's own custom-resource handlers
      const role = (props.Role as Json)['Fn::GetAtt'][0] as string;
      const statements = policies
        .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]);
      const managedPolicies = (resources[role]!.Properties.ManagedPolicyArns as Json[]).map(
        (arn) => (arn['Fn::Join'][1] as string[]).at(-1)!,
      );
      const logGroup = resources[props.LoggingConfig.LogGroup.Ref as string]!.Properties as Json;
      found.set(id, { stack, logicalId, props, statements, managedPolicies, logGroup });
    }
  }
  return found;
};

/** The ARN a statement names, as the logical id of the resource it points at (GetAtt) or the text itself. */
const resourceIds = (statement: Json): string[] =>
  asArray(statement.Resource as Json | Json[]).map((r) =>
    typeof r === 'string' ? r : ((r['Fn::GetAtt']?.[0] as string) ?? JSON.stringify(r)),
  );

const INSIGHTS_POLICY = ':iam::aws:policy/CloudWatchLambdaInsightsExecutionRolePolicy';

const actionsOf = (d: Deployed) => d.statements.flatMap((s) => asArray(s.Action as string | string[]));
const servicesOf = (d: Deployed) => new Set(actionsOf(d).map((a) => a.split(':')[0]));

describe('the dev app', () => {
  let service: ServiceApp;
  let deployed: Map<string, Deployed>;
  let app: App;
  let assemblyDir: string;

  beforeAll(() => {
    app = newApp();
    service = buildApp(app);
    assemblyDir = app.synth().directory; // runs cdk-nag; throws on any unacknowledged finding
    deployed = deployedFunctions(service);
  });

  const fn = (id: string) => {
    const d = deployed.get(id);
    if (!d) throw new Error(`function ${id} is not deployed`);
    return d;
  };

  test('one Lambda per manifest function, plus the migrate function: nodejs24.x on arm64 with the manifest limits', () => {
    expect([...deployed.keys()].sort()).toEqual([...functions.map((f) => f.id), MIGRATE_FUNCTION_ID].sort());
    for (const spec of functions) {
      const { props } = fn(spec.id);
      expect(props).toMatchObject({
        FunctionName: `ias-dev-${spec.id}`,
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: spec.timeoutSeconds,
        MemorySize: spec.memoryMb,
        TracingConfig: { Mode: 'Active' },
      });
      expect(props.FunctionName).toBe(functionName(service.config, spec.id));
      expect(props.Environment.Variables).toMatchObject({ FUNCTION_ID: spec.id });
    }
    // besides ours, only CDK's handlers: the VPC's default-security-group stripper and the trigger provider
    const others = Object.keys(Template.fromStack(service.data).findResources('AWS::Lambda::Function')).filter(
      (id) => id !== fn(MIGRATE_FUNCTION_ID).logicalId,
    );
    expect(others.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'AWSCDKTriggerCustomResourceProviderCustomResourceProviderHandler',
      'CustomVpcRestrictDefaultSGCustomResourceProviderHandler',
    ]);
  });

  test('every function: its own log group with the stage retention, X-Ray, and the arm64 Lambda Insights layer with its policy', () => {
    for (const [id, d] of deployed) {
      expect(d.logGroup).toEqual({ LogGroupName: `/ias-dev/functions/${id}`, RetentionInDays: 30 });
      expect(d.props.TracingConfig).toEqual({ Mode: 'Active' });
      expect(d.props.Layers).toEqual([{ 'Fn::FindInMap': [expect.any(String), { Ref: 'AWS::Region' }, expect.stringMatching(/arm64$/)] }]);
      expect(d.managedPolicies).toContain(INSIGHTS_POLICY);
    }
    // the regional layer map names the Lambda Insights extension for arm64 in the AI regions
    const api = Template.fromStack(service.api).toJSON() as Json;
    const [mapName, , key] = fn('analysis-get').props.Layers[0]['Fn::FindInMap'] as [string, unknown, string];
    for (const region of ['us-east-1', 'us-west-2']) {
      expect(api.Mappings[mapName][region][key]).toMatch(
        new RegExp(`^arn:aws:lambda:${region}:\\d+:layer:LambdaInsightsExtension-Arm64:\\d+$`),
      );
    }
  });

  test('migrations run on deploy: a trigger invokes the migrate function after the database, proxy and endpoints exist', () => {
    const data = Template.fromStack(service.data);
    const migrate = fn(MIGRATE_FUNCTION_ID);
    const triggers = data.findResources('Custom::Trigger');
    expect(Object.keys(triggers)).toHaveLength(1);
    const trigger = Object.values(triggers)[0]!;
    // the current version: a new bundle (new migrations) or configuration is a new version, and re-runs it
    const version = data.findResources('AWS::Lambda::Version', { Properties: { FunctionName: { Ref: migrate.logicalId } } });
    expect(trigger.Properties).toMatchObject({
      HandlerArn: { Ref: Object.keys(version)[0] },
      InvocationType: 'RequestResponse',
      ExecuteOnHandlerChange: true,
    });
    const logicalIdOf = (type: string, props?: Json) => Object.keys(data.findResources(type, props && { Properties: props }));
    const endpoints = (service: string) =>
      logicalIdOf('AWS::EC2::VPCEndpoint', { ServiceName: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([`.${service}`])] }) });
    for (const needed of [
      ...logicalIdOf('AWS::RDS::DBInstance'),
      ...logicalIdOf('AWS::RDS::DBProxy'),
      ...logicalIdOf('AWS::RDS::DBProxyTargetGroup'),
      ...endpoints('secretsmanager'),
      ...endpoints('sqs'),
      ...logicalIdOf('AWS::EC2::Route', { NatGatewayId: Match.anyValue() }), // the app subnets' way out (X-Ray, Lambda Insights)
    ]) {
      expect(trigger.DependsOn).toContain(needed);
    }
    // through the proxy, from inside the VPC, signing in with IAM as the proxy's user (no secret read)
    expect(migrate.props).toMatchObject({
      FunctionName: 'ias-dev-migrate',
      Timeout: 600,
      VpcConfig: {
        SecurityGroupIds: [{ 'Fn::GetAtt': [expect.stringMatching(/^DatabaseClients/), 'GroupId'] }],
        SubnetIds: expect.any(Array),
      },
    });
    expect(Object.keys(migrate.props.Environment.Variables).sort()).toEqual([...BASE_ENV, ...EXPECTED_ENV.database].sort());
    expect([...servicesOf(migrate)].sort()).toEqual(['rds-db', 'xray']);
    // the functions' stacks deploy after the data stack, so no function runs before the schema it expects
    for (const stack of [service.api, service.workers]) expect(stack.dependencies).toContain(service.data);
  });

  test('every HTTP trigger has its route, with the JWT authorizer exactly for investigator/admin', () => {
    const api = Template.fromStack(service.api);
    const routes = Object.values(api.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties as Json);
    const integrations = api.findResources('AWS::ApiGatewayV2::Integration');
    expect(routes).toHaveLength(httpRoutes().length);
    for (const trigger of httpRoutes()) {
      const route = routes.find((r) => r.RouteKey === `${trigger.method} ${trigger.path}`);
      expect(route).toBeDefined();
      const needsJwt = trigger.access === 'investigator' || trigger.access === 'admin';
      expect(route!.AuthorizationType).toBe(needsJwt ? 'JWT' : 'NONE');
      expect('AuthorizerId' in route!).toBe(needsJwt);
      // and it reaches the manifest's function
      const integrationId = (route!.Target as Json)['Fn::Join'][1][1].Ref as string;
      const uri = integrations[integrationId]!.Properties.IntegrationUri as Json;
      expect(uri['Fn::GetAtt'][0]).toBe(fn(trigger.fn.id).logicalId);
    }
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      // the SPA sends Idempotency-Key on retried feedback and reads Retry-After on a 429
      CorsConfiguration: Match.objectLike({
        // https://<distribution domain>, read from the web stack's shared value (test/infra/web-stack.synth.test.ts)
        AllowOrigins: [{ 'Fn::Join': ['', ['https://', sharedRef(api.toJSON(), '/ias-dev/shared/web/domain-name')]] }],
        AllowHeaders: ['authorization', 'content-type', 'idempotency-key'],
        ExposeHeaders: ['retry-after', 'x-request-id', 'content-disposition'],
        MaxAge: 3600,
      }),
    });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('requestId') }),
    });
  });

  test('per-route throttles in the stage: every route its own, sign-in and public routes tighter than reads; the stage after its routes', () => {
    const api = Template.fromStack(service.api);
    const [stageId, stage] = Object.entries(api.findResources('AWS::ApiGatewayV2::Stage'))[0]!;
    const props = stage.Properties as Json;
    expect(props.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    const settings = props.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(
      httpRoutes()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    const rate = (key: string) => settings[key]!.ThrottlingRateLimit;
    for (const route of httpRoutes()) {
      const setting = settings[`${route.method} ${route.path}`]!;
      expect(setting).toEqual({
        ThrottlingRateLimit: routeThrottle(route).rateLimit,
        ThrottlingBurstLimit: routeThrottle(route).burstLimit,
      });
      expect(setting.ThrottlingBurstLimit).toBeGreaterThanOrEqual(setting.ThrottlingRateLimit);
    }
    const read = rate('GET /api/investigations');
    expect(read).toBe(ROUTE_THROTTLES.investigatorRead.rateLimit);
    for (const key of [
      'POST /api/auth/login',
      'POST /api/auth/forgot-password',
      'POST /api/auth/mfa/verify',
      'GET /api/health',
      'POST /api/webhooks/payment',
    ]) {
      expect(rate(key)).toBeLessThan(read);
    }
    expect(rate('POST /api/auth/login')).toBeLessThanOrEqual(rate('GET /api/health'));
    expect(rate('POST /api/analysis')).toBeLessThan(read); // writes start AI work
    expect(rate('GET /api/analysis/{analysis_id}')).toBe(read); // the SPA polls it
    // CloudFormation creates the routes before the stage that names them
    const dependsOn = api.toJSON().Resources[stageId].DependsOn as string[];
    for (const routeId of Object.keys(api.findResources('AWS::ApiGatewayV2::Route'))) expect(dependsOn).toContain(routeId);
  });

  test('each queue has an encrypted, TLS-only DLQ with maxReceiveCount and visibility >= 6x its consumer timeout', () => {
    const workers = Template.fromStack(service.workers);
    const sqsQueues = workers.findResources('AWS::SQS::Queue');
    const mappings = Object.values(workers.findResources('AWS::Lambda::EventSourceMapping')).map((m) => m.Properties as Json);
    for (const [name, spec] of Object.entries(queues) as [QueueName, (typeof queues)[QueueName]][]) {
      const consumers = functions.filter((f) => f.triggers.some((t) => t.kind === 'queue' && t.queue === name));
      expect(consumers.length).toBeGreaterThan(0);
      for (const consumer of consumers) {
        const mapping = mappings.find((m) => m.FunctionName.Ref === fn(consumer.id).logicalId)!;
        const queueId = mapping.EventSourceArn['Fn::GetAtt'][0] as string;
        const queue = sqsQueues[queueId]!.Properties as Json;
        expect(queue.VisibilityTimeout).toBe(visibilityTimeoutSeconds(name));
        expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * consumer.timeoutSeconds);
        expect(queue.RedrivePolicy.maxReceiveCount).toBe(spec.maxReceiveCount);
        expect(queue.SqsManagedSseEnabled).toBe(true);
        const dlq = sqsQueues[queue.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string]!.Properties as Json;
        expect(dlq.SqsManagedSseEnabled).toBe(true);
      }
    }
    // every queue (DLQs included) denies plain HTTP
    expect(
      Object.keys(
        workers.findResources('AWS::SQS::QueuePolicy', {
          Properties: {
            PolicyDocument: {
              Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
            },
          },
        }),
      ),
    ).toHaveLength(Object.keys(sqsQueues).length);
  });

  test('queue triggers become event source mappings with partial batch responses and capped concurrency', () => {
    const workers = Template.fromStack(service.workers);
    const triggers = functions.flatMap((f) => f.triggers.flatMap((t) => (t.kind === 'queue' ? [{ f, t }] : [])));
    workers.resourceCountIs('AWS::Lambda::EventSourceMapping', triggers.length);
    for (const { f, t } of triggers) {
      workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fn(f.id).logicalId },
        BatchSize: t.batchSize,
        ScalingConfig: { MaximumConcurrency: t.maxConcurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
  });

  test("files arriving reach their queues: the bucket's events go to EventBridge, one rule per objectsCreated prefix targets its queue", () => {
    const data = Template.fromStack(service.data);
    const files = (service.data.filesBucket.node.defaultChild as s3.CfnBucket).logicalId;
    const bucket = data.toJSON().Resources[Stack.of(service.data).resolve(files)].Properties as Json;
    expect(bucket.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    // set on the bucket itself: no notifications custom resource (and no Lambda function behind it) anywhere
    for (const stack of [service.data, service.workers]) {
      expect(Object.keys(Template.fromStack(stack).findResources('Custom::S3BucketNotifications'))).toEqual([]);
    }

    const workers = Template.fromStack(service.workers);
    const resources = workers.toJSON().Resources as Record<string, Json>;
    const rules = Object.entries(workers.findResources('AWS::Events::Rule'));
    const arriving = Object.entries(queues).filter(([, spec]) => spec.objectsCreated);
    expect(arriving.map(([name]) => name).sort()).toEqual(['imports', 'ingestion']);
    expect(rules).toHaveLength(arriving.length);
    const bucketName = sharedRef(Template.fromStack(service.workers).toJSON(), '/ias-dev/shared/files/bucket-name'); // the data stack shares it
    for (const [name, spec] of arriving) {
      const queueId = Stack.of(service.workers).resolve((service.workers.queues[name as QueueName].node.defaultChild as Json).logicalId);
      const [ruleId, rule] = rules.find(([, r]) => r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === queueId)!;
      expect(rule.Properties).toMatchObject({
        State: 'ENABLED',
        EventPattern: {
          source: ['aws.s3'],
          'detail-type': ['Object Created'],
          detail: { bucket: { name: [bucketName] }, object: { key: [{ prefix: spec.objectsCreated!.prefix }] } },
        },
        Targets: [{ Arn: { 'Fn::GetAtt': [queueId, 'Arn'] }, Id: expect.any(String) }],
      });
      // the queue lets EventBridge send for this rule only
      const policy = Object.values(resources).find(
        (r) => r.Type === 'AWS::SQS::QueuePolicy' && r.Properties.Queues.some((q: Json) => q.Ref === queueId),
      )!;
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual({
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Action: expect.arrayContaining(['sqs:SendMessage']),
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
        Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [ruleId, 'Arn'] } } },
      });
    }
  });

  test("the files bucket: CORS for the SPA's origin (the API's), expiry of uploads waiting under seeds/ and imports/", () => {
    const data = Template.fromStack(service.data);
    // the distribution's origin, as the API's CORS allows it (the test above)
    const origin = { 'Fn::Join': ['', ['https://', sharedRef(data.toJSON(), '/ias-dev/shared/web/domain-name')]] };
    data.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      CorsConfiguration: {
        CorsRules: [
          {
            AllowedOrigins: [origin],
            AllowedMethods: ['PUT', 'GET', 'HEAD'],
            AllowedHeaders: ['content-type'],
            ExposedHeaders: ['ETag'],
            MaxAge: 3600,
          },
        ],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          { Prefix: 'seeds/', ExpirationInDays: 1, Status: 'Enabled' },
          { Prefix: 'imports/', ExpirationInDays: 14, Status: 'Enabled' },
        ]),
      },
    });
  });

  test('one EventBridge Scheduler schedule per schedule trigger, with retries and a DLQ', () => {
    const schedules = Template.fromStack(service.schedules);
    const triggers = functions.flatMap((f) => f.triggers.flatMap((t) => (t.kind === 'schedule' ? [{ f, t }] : [])));
    expect(triggers.length).toBeGreaterThan(0);
    schedules.resourceCountIs('AWS::Scheduler::Schedule', triggers.length);
    for (const { f, t } of triggers) {
      schedules.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: t.expression,
        Target: Match.objectLike({
          Arn: Stack.of(service.schedules).resolve(functionArnOf(service.schedules, 'ias-dev', f.id)), // by its fixed name
          Input: JSON.stringify({ source: 'schedule', function_id: f.id, expression: t.expression }),
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
          DeadLetterConfig: { Arn: Match.anyValue() },
        }),
      });
    }
  });

  test('a scheduled run that fails inside its function goes to the same queue: no asynchronous retry, the failure destination, sent with the function role', () => {
    const schedules = Template.fromStack(service.schedules);
    const scheduled = functions.filter((f) => f.triggers.some((t) => t.kind === 'schedule'));
    const queueId = service.schedules.getLogicalId(service.schedules.deadLetters.node.defaultChild as never);
    // named, so the functions' roles are granted it by name, in their own stacks
    schedules.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'ias-dev-schedule-failures' });
    schedules.resourceCountIs('AWS::Lambda::EventInvokeConfig', scheduled.length);
    schedules.resourceCountIs('AWS::SQS::QueuePolicy', 1); // the scheduler's own delivery (DeadLetterConfig), no function role
    const configs = Object.values(schedules.findResources('AWS::Lambda::EventInvokeConfig'));
    for (const f of scheduled) {
      const config = configs.find((c) => c.Properties.FunctionName === functionName({ prefix: 'ias-dev' }, f.id));
      expect(config?.Properties).toEqual({
        FunctionName: functionName({ prefix: 'ias-dev' }, f.id),
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
      });
      const { stack, statements } = fn(f.id);
      const sends = statements.filter((st) => asArray(st.Action as string | string[]).includes('sqs:SendMessage'));
      const failures = stack.resolve(queueArnOf(stack, 'ias-dev-schedule-failures'));
      expect(sends.map((st) => st.Resource)).toContainEqual(failures);
    }
  });

  test('least privilege: a function is granted only the services its `uses` name', () => {
    for (const spec of functions) {
      // a worker consumes its queue; a scheduled function sends its failed runs to the schedules' queue
      const sqs = isWorker(spec) || spec.triggers.some((t) => t.kind === 'schedule');
      const expected = new Set(['xray', ...spec.uses.flatMap((use) => EXPECTED_SERVICES[use]), ...(sqs ? ['sqs'] : [])]);
      expect([...servicesOf(fn(spec.id))].sort()).toEqual([...expected].sort());
    }
    expect([...servicesOf(fn('openapi'))]).toEqual(['xray']);
    const generation = servicesOf(fn('generation-worker'));
    expect(generation.has('bedrock')).toBe(true);
    expect(generation.has('s3')).toBe(false);
  });

  test('least privilege: only functions whose `uses` name a queue may send to it; a worker consumes only its own queue', () => {
    const workers = Template.fromStack(service.workers);
    const queueIds = Object.fromEntries(
      (Object.keys(queues) as QueueName[]).map((name) => {
        const ids = Object.keys(workers.findResources('AWS::SQS::Queue')).filter((id) => id.startsWith(`${name}queue`));
        expect(ids).toHaveLength(1);
        return [name, ids[0]!];
      }),
    ) as Record<QueueName, string>;
    // a statement names a queue by its logical id (GetAtt, in the workers stack) or its fixed name (names.ts)
    const names = (name: QueueName) => [queueIds[name], `:ias-dev-${name}"`];
    const SENDS: Partial<Record<Resource, QueueName>> = {
      generationQueue: 'generation',
      qualityQueue: 'quality',
      ingestionQueue: 'ingestion',
      importsQueue: 'imports',
      embeddingQueue: 'embedding',
    };
    for (const spec of functions) {
      const may = spec.uses.flatMap((use) => SENDS[use] ?? []);
      const sendsTo = fn(spec.id)
        .statements.filter((s) => asArray(s.Action as string[]).includes('sqs:SendMessage'))
        .flatMap(resourceIds)
        .filter((arn) => !arn.includes(':ias-dev-schedule-failures"')) // a scheduled function's failed runs (the test above)
        .join(' ');
      if (may.length === 0) expect(sendsTo).toBe('');
      for (const name of Object.keys(queues) as QueueName[]) {
        expect(names(name).some((n) => sendsTo.includes(n))).toBe(may.includes(name));
      }
    }
    for (const spec of functions) {
      const consumes = fn(spec.id).statements.filter((s) =>
        asArray(s.Action as string[]).some((a) => ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'].includes(a)),
      );
      const own = spec.triggers.flatMap((t) => (t.kind === 'queue' ? [queueIds[t.queue]] : []));
      expect(consumes.flatMap(resourceIds).sort()).toEqual(own.sort());
    }
    // the health check only reads: it sends to no queue; files are written (and deleted) only by the functions whose `uses` say so
    expect(actionsOf(fn('health')).filter((a) => a === 'sqs:SendMessage')).toEqual([]);
    const WRITES: Partial<Record<Resource, string[]>> = {
      seedImports: ['s3:PutObject', 's3:PutObject'],
      fileUploads: ['s3:PutObject'],
      importUploads: ['s3:PutObject'],
      fileDeletes: ['s3:DeleteObject'],
    };
    for (const spec of functions) {
      const writes = actionsOf(fn(spec.id)).filter((a) => ['s3:PutObject', 's3:DeleteObject'].includes(a));
      expect(writes.sort()).toEqual(spec.uses.flatMap((use) => WRITES[use] ?? []).sort());
    }
  });

  test('least privilege: no wildcard beyond X-Ray; secrets, models and Cognito actions are exact', () => {
    for (const spec of functions) {
      const d = fn(spec.id);
      for (const s of d.statements) {
        if (asArray(s.Resource as unknown).includes('*'))
          expect(asArray(s.Action as string[]).every((a) => a.startsWith('xray:'))).toBe(true);
        for (const action of asArray(s.Action as string[])) expect(action.startsWith('xray:') || !action.includes('*')).toBe(true);
      }
      const secretReads = d.statements.filter((s) => asArray(s.Action as string[]).includes('secretsmanager:GetSecretValue'));
      const secretUses = spec.uses.filter((u) => ['cronSecret', 'webhookSecret'].includes(u)).length;
      expect(secretReads.flatMap((s) => asArray(s.Resource as unknown))).toHaveLength(secretUses);
    }
    // database users (and the migrate function) connect through the proxy as its one user: rds-db:connect on
    // arn:<partition>:rds-db:<region>:<account>:dbuser:<proxy resource id>/analysis_app, nothing wider
    for (const id of [...functions.filter((f) => f.uses.includes('database')).map((f) => f.id), MIGRATE_FUNCTION_ID]) {
      const connects = fn(id).statements.filter((s) => asArray(s.Action as string[]).includes('rds-db:connect'));
      expect(connects.map((s) => asArray(s.Action as string[]))).toEqual([['rds-db:connect']]);
      const arns = asArray(connects[0]!.Resource as Json[]);
      expect(arns).toHaveLength(1);
      const [, parts] = arns[0]!['Fn::Join'] as [string, Json[]];
      expect(parts.slice(0, 7)).toEqual([
        'arn:',
        { Ref: 'AWS::Partition' },
        ':rds-db:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        ':dbuser:',
      ]);
      // the proxy's resource id: the last part of its ARN (in the data stack its own; elsewhere as the data stack shares it)
      expect(JSON.stringify(parts[7])).toMatch(/Fn::Split.*("DBProxyArn"|SsmParameterValueiasdevshareddatabaseproxyarn)/);
      expect(parts.slice(8)).toEqual(['/analysis_app']);
    }
    for (const spec of functions.filter((f) => !f.uses.includes('database')))
      expect(actionsOf(fn(spec.id))).not.toContain('rds-db:connect');
    // each Bedrock user may invoke its own models (inference profile and foundation model), and no other (the judge
    // model: no function); the ARNs per kind of model id and region are test/infra/models.synth.test.ts
    const models = (id: string) =>
      new Set(
        fn(id)
          .statements.filter((s) => asArray(s.Action as string[]).some((action) => action.startsWith('bedrock:InvokeModel')))
          .flatMap((s) => asArray(s.Resource as Json[]))
          .map((r) =>
            JSON.stringify(r)
              .replace(/.*(?:foundation-model|inference-profile)\//, '')
              .replace(/"\]\]\}$/, ''),
          ),
      );
    const profileAndModel = (...ids: string[]) => new Set(ids.flatMap((id) => [id, parseModelId(id).model]));
    expect(models('quality-worker')).toEqual(profileAndModel(DEFAULT_AI_MODELS.quality));
    expect(models('embedding-sweeper')).toEqual(profileAndModel(DEFAULT_AI_MODELS.embedding));
    expect(models('generation-worker')).toEqual(profileAndModel(DEFAULT_AI_MODELS.analysis, DEFAULT_AI_MODELS.embedding));
    // the text models answer through ConverseStream (bedrock:InvokeModelWithResponseStream), Cohere Embed through InvokeModel
    const bedrockActions = (id: string) => [...new Set(actionsOf(fn(id)).filter((a) => a.startsWith('bedrock:')))].sort();
    expect(bedrockActions('quality-worker')).toEqual(['bedrock:InvokeModelWithResponseStream']);
    expect(bedrockActions('embedding-sweeper')).toEqual(['bedrock:InvokeModel']);
    expect(bedrockActions('generation-worker')).toEqual(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']);
    // sign-in: the route that starts it initiates, the routes that answer a challenge respond, forgot-password needs no IAM
    const cognito = (id: string) =>
      actionsOf(fn(id))
        .filter((a) => a.startsWith('cognito-idp:'))
        .sort();
    expect(cognito('auth-login')).toEqual(['cognito-idp:AdminInitiateAuth']);
    for (const id of ['auth-mfa-verify', 'auth-mfa-setup', 'auth-webauthn-verify', 'auth-new-password'])
      expect(cognito(id)).toEqual(['cognito-idp:AdminRespondToAuthChallenge']);
    expect(cognito('auth-forgot-password')).toEqual([]);
    // sending and reading secrets name the one action the code calls
    expect(
      actionsOf(fn('analysis-create'))
        .filter((a) => a.startsWith('sqs:') || a.startsWith('secretsmanager:'))
        .sort(),
    ).toEqual(['sqs:SendMessage']);
    // queue stats read the depths of every queue and its DLQ, and may not send, receive or delete
    const stats = fn('admin-queue-stats').statements.filter((s) => asArray(s.Action as string[]).some((a) => a.startsWith('sqs:')));
    expect(stats.flatMap((s) => asArray(s.Action as string[]))).toEqual(['sqs:GetQueueAttributes']);
    const queueArns = stats.flatMap((s) => asArray(s.Resource as Json[])).map((r) => JSON.stringify(r));
    expect(queueArns).toHaveLength(2 * Object.keys(queues).length);
    // each by its fixed name (names.ts)
    for (const queue of Object.keys(queues).flatMap((name) => [`ias-dev-${name}"`, `ias-dev-${name}-dlq"`]))
      expect(queueArns.some((a) => a.includes(queue))).toBe(true);
  });

  test('environment variables follow `uses`; only database users run in the VPC', () => {
    for (const spec of functions) {
      const { props } = fn(spec.id);
      const cron = spec.triggers.some((t) => t.kind === 'http' && t.access === 'cron');
      const expected = [...BASE_ENV, ENV.functionFacts, ...(cron ? TOKEN_ENV : []), ...spec.uses.flatMap((use) => EXPECTED_ENV[use])];
      expect(Object.keys(props.Environment.Variables as Json).sort()).toEqual([...new Set(expected)].sort());
      expect('VpcConfig' in props).toBe(spec.uses.includes('database'));
      // the manifest's facts its bundle reads in place of the manifest (layers/core/function-facts.ts)
      expect(JSON.parse((props.Environment.Variables as Json)[ENV.functionFacts] as string)).toEqual(functionFacts(spec));
    }
    expect(fn('generation-worker').props.Environment.Variables).toMatchObject({
      AI_PRIMARY_REGION: 'us-east-1',
      AI_FALLBACK_REGION: 'us-west-2',
      AI_MODEL_ANALYSIS: DEFAULT_AI_MODELS.analysis,
      AI_MODEL_EMBEDDING: DEFAULT_AI_MODELS.embedding,
      DB_NAME: 'analysis',
    });
  });

  test('data: PostgreSQL 16 encrypted behind a TLS-only proxy, private S3 with access logs, endpoints in prod, flow logs', () => {
    const data = Template.fromStack(service.data);
    data.hasResourceProperties('AWS::RDS::DBInstance', {
      Engine: 'postgres',
      EngineVersion: Match.stringLikeRegexp('^16'),
      StorageEncrypted: true,
      PubliclyAccessible: false,
    });
    // clients sign in with IAM auth tokens; the proxy alone holds the (rotating) secret
    data.hasResourceProperties('AWS::RDS::DBProxy', {
      RequireTLS: true,
      EngineFamily: 'POSTGRESQL',
      Auth: [Match.objectLike({ AuthScheme: 'SECRETS', IAMAuth: 'REQUIRED' })],
    });
    data.resourceCountIs('AWS::SecretsManager::RotationSchedule', 1);
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: Match.anyValue(),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
      VersioningConfiguration: { Status: 'Enabled' },
    });
    // dev's NAT is one instance (StageConfig.natInstanceType) forwarding for the VPC; prod's are gateways, one a zone
    data.resourceCountIs('AWS::EC2::NatGateway', 0);
    data.resourceCountIs('AWS::EC2::Instance', 1);
    data.hasResourceProperties('AWS::EC2::Instance', { InstanceType: 't4g.nano', SourceDestCheck: false });
    data.hasResourceProperties('AWS::EC2::Route', { DestinationCidrBlock: '0.0.0.0/0', InstanceId: Match.anyValue() });
    expect(Object.keys(resourcesOfType(synthesized('prod').templates.data, 'AWS::EC2::NatGateway'))).toHaveLength(2);
    expect(resourcesOfType(synthesized('prod').templates.data, 'AWS::EC2::Instance')).toEqual({});
    data.resourceCountIs('AWS::EC2::FlowLog', 1);
    // dev's functions reach AWS services over its NAT (StageConfig.endpointZones): S3's free gateway endpoint only
    expect(Object.values(data.findResources('AWS::EC2::VPCEndpoint')).map((e) => e.Properties.VpcEndpointType)).toEqual(['Gateway']);
    // prod's interface endpoints are in both zones; its Bedrock endpoint serves only its own region, so it is created
    // only where that is the AI primary region
    const prodData = Template.fromJSON(synthesized('prod').templates.data);
    const serviceOf = (e: Json) =>
      ((e.Properties.ServiceName as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1].at(-1) as string).slice(1);
    const prodEndpoints = Object.values(prodData.findResources('AWS::EC2::VPCEndpoint'));
    expect(
      Object.fromEntries(prodEndpoints.map((e) => [serviceOf(e), (e.Properties.SubnetIds as unknown[] | undefined)?.length ?? 'gateway'])),
    ).toEqual({
      secretsmanager: 2,
      sqs: 2,
      'bedrock-runtime': 2,
      s3: 'gateway',
    });
    const bedrock = prodEndpoints.find((e) => serviceOf(e) === 'bedrock-runtime')!;
    prodData.templateMatches({ Conditions: { [bedrock.Condition as string]: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] } } });
    for (const e of prodEndpoints) if (e !== bedrock) expect(e.Condition).toBeUndefined();
    data.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: '/aws/rds/instance/ias-dev-db/postgresql', RetentionInDays: 30 });
  });

  test('identity: invitation only, optional TOTP MFA, strong passwords, an admin group', () => {
    const identity = Template.fromStack(service.identity);
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 12,
          RequireSymbols: true,
          RequireNumbers: true,
          RequireUppercase: true,
          RequireLowercase: true,
        }),
      },
    });
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      // passkeys as a first factor for the SPA's host; forgot-password by verified email
      Policies: Match.objectLike({ SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] } }),
      WebAuthnRelyingPartyID: sharedRef(identity.toJSON(), '/ias-dev/shared/web/domain-name'), // the distribution's domain
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
    identity.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'admin' });
    identity.hasResourceProperties('AWS::Cognito::UserPoolClient', { GenerateSecret: false });
  });

  test('observability: an encrypted, TLS-only alarm topic', () => {
    const observability = Template.fromStack(service.observability);
    observability.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    observability.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  test('cdk-nag: no unacknowledged finding; CloudFormation validation passes', () => {
    const report = JSON.parse(readFileSync(join(assemblyDir, 'validation-report.json'), 'utf8')) as { pluginReports: Json[] };
    expect(report.pluginReports.flatMap((r) => r.violations ?? [])).toEqual([]);
    expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
    expect(synthesized('dev').validationViolations).toEqual([]); // the same stage's synth with CloudFormation validation on
  });
});

describe('cdk-nag wiring', () => {
  test('an unacknowledged finding fails synthesis', () => {
    const app = newApp();
    new s3.Bucket(new Stack(app, 'Bare'), 'Insecure');
    Validations.of(app).addPlugins(new NagChecks(app)); // as buildApp does
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });
});

describe('the prod stage', () => {
  test("a CORS origin it is given must be https (without one, it is the web stack's distribution)", () => {
    expect(() => buildApp(newApp({ stage: 'prod', alarmEmails: 'oncall@example.com', corsOrigin: 'http://app.example.com' }))).toThrow(
      /corsOrigin=https:/,
    );
    expect(stageConfig(newApp({ stage: 'prod', alarmEmails: 'oncall@example.com', ...PROD_EMAIL }).node).corsOrigin).toBeUndefined();
  });

  test('needs the on-call addresses of its alarm topic: no subscriber would page no one', () => {
    const needsEmails = /^stage 'prod' needs the on-call addresses its alarms notify .*-c alarmEmails=/;
    expect(() => buildApp(newApp({ stage: 'prod', corsOrigin: 'https://app.example.com' }))).toThrow(needsEmails);
    expect(() => buildApp(newApp({ stage: 'prod', corsOrigin: 'https://app.example.com', alarmEmails: ' , ' }))).toThrow(needsEmails);
    expect(
      stageConfig(
        newApp({ stage: 'prod', 'ias:prod': { corsOrigin: 'https://app.example.com', alarmEmails: 'oncall@example.com', ...PROD_EMAIL } })
          .node,
      ).alarmEmails,
    ).toEqual(['oncall@example.com']);
    expect(stageConfig(newApp().node).alarmEmails).toEqual([]); // dev may go without
  });

  test("sends the user pool's e-mail through SES: the identity is required, well-formed, and becomes the pool's EmailConfiguration", () => {
    const prod = (email: Json) =>
      stageConfig(newApp({ stage: 'prod', corsOrigin: 'https://app.example.com', alarmEmails: 'a@example.com', ...email }).node);
    expect(() => prod({})).toThrow(
      /^stage 'prod' sends its invitations, .* through SES .*-c sesFromEmail=no-reply@example.com -c sesRegion=/,
    );
    expect(() => prod({ sesFromEmail: 'no-reply@example.com' })).toThrow(/sesRegion is the region/);
    expect(() => prod({ sesFromEmail: 'no-reply', sesRegion: 'us-east-1' })).toThrow(/sesFromEmail is the address/);
    expect(() => prod({ ...PROD_EMAIL, sesVerifiedDomain: 'other.org' })).toThrow(
      /sesVerifiedDomain must be the domain of sesFromEmail \(example.com\)/,
    );
    expect(prod({ ...PROD_EMAIL, sesVerifiedDomain: 'example.com' }).email).toEqual({
      fromEmail: 'no-reply@example.com',
      sesRegion: 'us-east-1',
      verifiedDomain: 'example.com',
    });
    // the stage as synthesized (STAGES.prod): Cognito sends as the verified identity, through SES
    Template.fromJSON(synthesized('prod').templates.identity).hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: {
        EmailSendingAccount: 'DEVELOPER',
        From: 'no-reply@example.com',
        SourceArn: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':ses:us-east-1:'), ':identity/example.com'])] },
      },
    });
    // dev may go without: Cognito's own
    expect(stageConfig(newApp().node).email).toBeUndefined();
    Template.fromJSON(synthesized('dev').templates.identity).hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: { EmailSendingAccount: 'COGNITO_DEFAULT' },
    });
  });

  test('is Multi-AZ, protected, retained, a NAT per AZ, on the Plus plan, and passes cdk-nag without the dev acknowledgements', () => {
    // settings from the stage's block in cdk.json (STAGES.prod); synthesized with cdk-nag, which throws on any unacknowledged finding
    const { templates, stackNames } = synthesized('prod');
    const data = Template.fromJSON(templates.data);
    data.hasResourceProperties('AWS::RDS::DBInstance', { MultiAZ: true, DeletionProtection: true, DBInstanceClass: 'db.m7g.large' });
    data.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'ias-prod-migrate' });
    data.resourceCountIs('Custom::Trigger', 1);
    // prod keeps logs for a year
    for (const template of [templates.data, templates.identity, templates.api, templates.workers]) {
      for (const group of Object.values(Template.fromJSON(template).findResources('AWS::Logs::LogGroup')))
        expect(group.Properties.RetentionInDays).toBe(365);
    }
    Template.fromJSON(templates.workers).hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'ias-prod-generation-worker',
      Environment: { Variables: Match.objectLike({ AI_PRIMARY_REGION: 'us-east-1', AI_FALLBACK_REGION: 'eu-central-1' }) },
    });
    data.hasResource('AWS::RDS::DBInstance', { DeletionPolicy: 'Retain' });
    data.resourceCountIs('AWS::EC2::NatGateway', 2);
    for (const e of Object.values(data.findResources('AWS::EC2::VPCEndpoint', { Properties: { VpcEndpointType: 'Interface' } })))
      expect(e.Properties.SubnetIds).toHaveLength(2); // one a zone
    Template.fromJSON(templates.identity).hasResourceProperties('AWS::Cognito::UserPool', {
      WebAuthnRelyingPartyID: 'app.example.com',
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
    });
    const api = Template.fromJSON(templates.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com'] }),
    });
    // the files bucket's CORS names the same origin: browsers upload there by presigned URL from the app
    data.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://app.example.com'] })] },
    });
    expect(stackNames.api).toBe('ias-prod-api');
    // the API on its own hostname, TLS 1.2, mapped to the default stage
    api.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' })],
    });
    api.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: Match.anyValue(), ApiId: Match.anyValue() });
    expect(Object.keys(api.findOutputs('*'))).toEqual(expect.arrayContaining(['ApiDomainUrl', 'ApiDomainTarget', 'ApiDomainZone']));
  });
});

describe('stage configuration from CDK context', () => {
  const config = (context: Json) => stageConfig(new App({ context, outdir: appOutdir() }).node);

  test('defaults per stage: retention, database class, MFA', () => {
    expect(config({})).toMatchObject({ stage: 'dev', logRetention: 30, database: { instanceType: 't4g.micro' }, mfa: 'optional' });
    expect(
      config({ stage: 'prod', corsOrigin: 'https://app.example.com', alarmEmails: 'oncall@example.com', ...PROD_EMAIL }),
    ).toMatchObject({
      stage: 'prod',
      logRetention: 365,
      database: { instanceType: 'm7g.large', multiAz: true },
      mfa: 'optional',
    });
  });

  test('a custom API hostname: none by default; name and certificate together, each well-formed', () => {
    expect(config({}).apiDomain).toBeUndefined();
    expect(config({ apiDomainName: 'api.example.com', apiCertificateArn: CERTIFICATE }).apiDomain).toEqual({
      name: 'api.example.com',
      certificateArn: CERTIFICATE,
    });
    expect(() => config({ apiDomainName: 'api.example.com' })).toThrow(/go together/);
    expect(() => config({ apiCertificateArn: CERTIFICATE })).toThrow(/go together/);
    expect(() => config({ apiDomainName: 'https://api.example.com', apiCertificateArn: CERTIFICATE })).toThrow(/hostname/);
    expect(() => config({ apiDomainName: 'api.example.com', apiCertificateArn: 'arn:aws:iam::123456789012:server-certificate/x' })).toThrow(
      /ACM certificate ARN/,
    );
    // the dev app has no domain resources
    expect(resourcesOfType(synthesized('dev').templates.api, 'AWS::ApiGatewayV2::DomainName')).toEqual({});
  });

  test("-c wins over the stage block, which wins over the defaults; another stage's block is ignored", () => {
    const context = {
      stage: 'prod',
      'ias:prod': {
        corsOrigin: 'https://block.example.com',
        alarmEmails: 'oncall@example.com',
        ...PROD_EMAIL,
        databaseInstanceType: 'r7g.xlarge',
        logRetentionDays: 731,
      },
      'ias:dev': { aiPrimaryRegion: 'eu-west-1' },
    };
    expect(config(context)).toMatchObject({
      corsOrigin: 'https://block.example.com',
      database: { instanceType: 'r7g.xlarge', multiAz: true },
      logRetention: 731,
      ai: { primaryRegion: 'us-east-1' },
    });
    expect(config({ ...context, corsOrigin: 'https://flag.example.com', mfa: 'required' })).toMatchObject({
      corsOrigin: 'https://flag.example.com',
      mfa: 'required',
    });
  });

  test.each([
    [{ logRetentionDays: 10 }, /logRetentionDays/],
    [{ databaseInstanceType: 'db.t4g.micro' }, /without the db\. prefix/],
    [{ mfa: 'sometimes' }, /mfa must be optional or required/],
    [{ gatewayThrottles: 'sometimes' }, /gatewayThrottles must be on or off/],
    [{ stage: 'staging' }, /unknown stage/],
  ])('rejects %j at synth', (context, message) => {
    expect(() => config(context)).toThrow(message);
  });

  test('required MFA: Cognito enforces it, with TOTP, and offers no passkey first factor', () => {
    const app = newApp({ mfa: 'required' });
    const identity = Template.fromStack(
      new IdentityStack(app, 'Identity', {
        config: stageConfig(app.node),
        appOrigin: () => ({ url: 'https://app.example.com', host: 'app.example.com' }),
        triggers: [],
      }),
    );
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: Match.objectLike({ SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD'] } }),
    });
    expect(() => synthesized('requiredMfa')).not.toThrow(); // the app with required MFA passes CloudFormation validation
  });
});
