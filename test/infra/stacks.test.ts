/**
 * CDK assertions over the app bin/app.ts deploys (buildApp), with bundling skipped. The expectations
 * are derived from the service manifest, so a manifest change is checked without touching this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ENV } from '../../layers/core/config';
import { functions, httpRoutes, queues, visibilityTimeoutSeconds, type FunctionSpec, type QueueName, type Resource } from '../../lib/manifest';
import { buildApp, type ServiceApp } from '../../lib/stacks';
import { NagChecks } from '../../lib/stacks/nag';
import { DEFAULT_AI_MODELS } from '../../layers/core/config';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cdkContext = (JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')) as { context: Json }).context;
const newApp = (context: Json = {}) => new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });

/** What each resource must put in a function's environment (written out, not read from the stacks). */
const EXPECTED_ENV: Record<Resource, string[]> = {
  database: [ENV.dbSecretArn, ENV.dbHost, ENV.dbName],
  filesBucket: [ENV.filesBucket],
  generationQueue: [ENV.generationQueueUrl],
  qualityQueue: [ENV.qualityQueueUrl],
  queueStats: [ENV.generationQueueUrl, ENV.qualityQueueUrl, ENV.aiPrimaryRegion, ENV.aiFallbackRegion],
  bedrock: [ENV.aiPrimaryRegion, ENV.aiFallbackRegion, 'AI_MODEL_ANALYSIS', 'AI_MODEL_QUALITY', 'AI_MODEL_JUDGE', 'AI_MODEL_EMBEDDING'],
  cronSecret: [ENV.cronSecretArn],
  webhookSecret: [ENV.webhookSecretArn],
  userPool: [ENV.userPoolId, ENV.userPoolClientId],
};
const BASE_ENV = [ENV.functionId, 'POWERTOOLS_SERVICE_NAME', 'NODE_OPTIONS', ENV.jwtIssuer, ENV.jwtAudience];

/** The IAM services a resource may add to a function's policy. */
const EXPECTED_SERVICES: Record<Resource, string[]> = {
  database: ['secretsmanager'],
  filesBucket: ['s3'],
  generationQueue: ['sqs'],
  qualityQueue: ['sqs'],
  queueStats: ['sqs'],
  bedrock: ['bedrock'],
  cronSecret: ['secretsmanager'],
  webhookSecret: ['secretsmanager'],
  userPool: ['cognito-idp'],
};

const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const isWorker = (fn: FunctionSpec) => fn.triggers.some((t) => t.kind === 'queue');

interface Deployed {
  logicalId: string;
  props: Json;
  statements: Json[];
}

const deployedFunctions = (service: ServiceApp): Map<string, Deployed> => {
  const found = new Map<string, Deployed>();
  for (const stack of [service.api, service.workers]) {
    const template = Template.fromStack(stack);
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    for (const [logicalId, resource] of Object.entries(template.findResources('AWS::Lambda::Function'))) {
      const props = resource.Properties as Json;
      const role = (props.Role as Json)['Fn::GetAtt'][0] as string;
      const statements = policies
        .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]);
      found.set(props.Environment.Variables[ENV.functionId] as string, { logicalId, props, statements });
    }
  }
  return found;
};

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

  test('one Lambda per manifest function: nodejs22.x on arm64 with the manifest limits', () => {
    expect([...deployed.keys()].sort()).toEqual(functions.map((f) => f.id).sort());
    for (const spec of functions) {
      const { props } = fn(spec.id);
      expect(props).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: spec.timeoutSeconds,
        MemorySize: spec.memoryMb,
        TracingConfig: { Mode: 'Active' },
      });
      expect(props.Environment.Variables).toMatchObject({ FUNCTION_ID: spec.id, NODE_OPTIONS: '--enable-source-maps' });
    }
    // the only other Lambda is CDK's custom resource that strips the VPC's default security group
    const others = Template.fromStack(service.data).findResources('AWS::Lambda::Function');
    expect(Object.keys(others)).toHaveLength(1);
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
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['http://localhost:5173'], AllowHeaders: Match.arrayWith(['authorization']) }),
    });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('requestId') }),
    });
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
    expect(Object.keys(workers.findResources('AWS::SQS::QueuePolicy', {
      Properties: { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } },
    }))).toHaveLength(Object.keys(sqsQueues).length);
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

  test('one EventBridge Scheduler schedule per schedule trigger, with retries and a DLQ', () => {
    const schedules = Template.fromStack(service.schedules);
    const triggers = functions.flatMap((f) => f.triggers.flatMap((t) => (t.kind === 'schedule' ? [{ f, t }] : [])));
    expect(triggers.length).toBeGreaterThan(0);
    schedules.resourceCountIs('AWS::Scheduler::Schedule', triggers.length);
    for (const { f, t } of triggers) {
      schedules.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: t.expression,
        Target: Match.objectLike({
          Arn: { 'Fn::GetStackOutput': Match.objectLike({ OutputName: Match.stringLikeRegexp(fn(f.id).logicalId) }) },
          Input: JSON.stringify({ source: 'schedule', function_id: f.id, expression: t.expression }),
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
          DeadLetterConfig: { Arn: Match.anyValue() },
        }),
      });
    }
  });

  test('least privilege: a function is granted only the services its `uses` name', () => {
    for (const spec of functions) {
      const expected = new Set(['xray', ...spec.uses.flatMap((use) => EXPECTED_SERVICES[use]), ...(isWorker(spec) ? ['sqs'] : [])]);
      expect([...servicesOf(fn(spec.id))].sort()).toEqual([...expected].sort());
    }
    expect([...servicesOf(fn('openapi'))]).toEqual(['xray']);
    const generation = servicesOf(fn('generation-worker'));
    expect(generation.has('bedrock')).toBe(true);
    expect(generation.has('s3')).toBe(false);
  });

  test('least privilege: no wildcard beyond X-Ray; secrets, models and Cognito actions are exact', () => {
    for (const spec of functions) {
      const d = fn(spec.id);
      for (const s of d.statements) {
        if (asArray(s.Resource as unknown).includes('*')) expect(asArray(s.Action as string[]).every((a) => a.startsWith('xray:'))).toBe(true);
        for (const action of asArray(s.Action as string[])) expect(action.startsWith('xray:') || !action.includes('*')).toBe(true);
      }
      const secretReads = d.statements.filter((s) => asArray(s.Action as string[]).includes('secretsmanager:GetSecretValue'));
      const secretUses = spec.uses.filter((u) => ['database', 'cronSecret', 'webhookSecret'].includes(u)).length;
      expect(secretReads.flatMap((s) => asArray(s.Resource as unknown))).toHaveLength(secretUses);
    }
    const bedrock = fn('quality-worker').statements.find((s) => asArray(s.Action as string[]).includes('bedrock:InvokeModel'))!;
    const arns = asArray(bedrock.Resource as Json[]).map((r) => JSON.stringify(r));
    expect(arns).toHaveLength(2 * new Set(Object.values(DEFAULT_AI_MODELS)).size);
    for (const region of ['us-east-1', 'us-west-2']) {
      for (const model of Object.values(DEFAULT_AI_MODELS)) expect(arns.some((a) => a.includes(`:bedrock:${region}::foundation-model/${model}`))).toBe(true);
    }
    expect(actionsOf(fn('auth-login')).filter((a) => a.startsWith('cognito-idp:')).sort())
      .toEqual(['cognito-idp:AdminInitiateAuth', 'cognito-idp:AdminRespondToAuthChallenge']);
    // queue stats read the depths of both queues and both DLQs, and may not send, receive or delete
    const stats = fn('admin-queue-stats').statements.filter((s) => asArray(s.Action as string[]).some((a) => a.startsWith('sqs:')));
    expect(stats.flatMap((s) => asArray(s.Action as string[]))).toEqual(['sqs:GetQueueAttributes']);
    const queueArns = stats.flatMap((s) => asArray(s.Resource as Json[])).map((r) => JSON.stringify(r));
    expect(queueArns).toHaveLength(4);
    for (const queue of ['generationqueue', 'generationdlq', 'qualityqueue', 'qualitydlq']) expect(queueArns.some((a) => a.toLowerCase().replace(/-/g, '').includes(queue))).toBe(true);
  });

  test('environment variables follow `uses`; only database users run in the VPC', () => {
    for (const spec of functions) {
      const { props } = fn(spec.id);
      const expected = [...BASE_ENV, ...spec.uses.flatMap((use) => EXPECTED_ENV[use])];
      expect(Object.keys(props.Environment.Variables as Json).sort()).toEqual([...new Set(expected)].sort());
      expect('VpcConfig' in props).toBe(spec.uses.includes('database'));
    }
    expect(fn('generation-worker').props.Environment.Variables).toMatchObject({
      AI_PRIMARY_REGION: 'us-east-1',
      AI_FALLBACK_REGION: 'us-west-2',
      AI_MODEL_ANALYSIS: DEFAULT_AI_MODELS.analysis,
      AI_MODEL_EMBEDDING: 'amazon.titan-embed-text-v2:0',
      DB_NAME: 'analysis',
    });
  });

  test('data: PostgreSQL 16 encrypted behind a TLS-only proxy, private S3 with access logs, endpoints, flow logs', () => {
    const data = Template.fromStack(service.data);
    data.hasResourceProperties('AWS::RDS::DBInstance', {
      Engine: 'postgres',
      EngineVersion: Match.stringLikeRegexp('^16'),
      StorageEncrypted: true,
      PubliclyAccessible: false,
    });
    data.hasResourceProperties('AWS::RDS::DBProxy', { RequireTLS: true, EngineFamily: 'POSTGRESQL' });
    data.resourceCountIs('AWS::SecretsManager::RotationSchedule', 1);
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: Match.anyValue(),
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
      VersioningConfiguration: { Status: 'Enabled' },
    });
    data.resourceCountIs('AWS::EC2::NatGateway', 1);
    data.resourceCountIs('AWS::EC2::FlowLog', 1);
    for (const service of ['secretsmanager', 'sqs', 'bedrock-runtime', 's3']) {
      data.hasResourceProperties('AWS::EC2::VPCEndpoint', { ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, `.${service}`]] } });
    }
  });

  test('identity: invitation only, optional TOTP MFA, strong passwords, an admin group', () => {
    const identity = Template.fromStack(service.identity);
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true, RequireNumbers: true, RequireUppercase: true, RequireLowercase: true }) },
    });
    identity.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'admin' });
    identity.hasResourceProperties('AWS::Cognito::UserPoolClient', { GenerateSecret: false });
  });

  test('observability: an encrypted, TLS-only alarm topic', () => {
    const observability = Template.fromStack(service.observability);
    observability.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    observability.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('cdk-nag: no unacknowledged finding', () => {
    const report = JSON.parse(readFileSync(join(assemblyDir, 'validation-report.json'), 'utf8')) as { pluginReports: Json[] };
    expect(report.pluginReports.flatMap((r) => r.violations ?? [])).toEqual([]);
    expect(new AwsSolutionsChecks().validateScope(app).violations).toEqual([]);
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
  test('needs an https CORS origin', () => {
    expect(() => buildApp(newApp({ stage: 'prod' }))).toThrow(/corsOrigin/);
  });

  test('is Multi-AZ, protected, retained, a NAT per AZ, on the Plus plan, and passes cdk-nag without the dev acknowledgements', () => {
    const app = newApp({ stage: 'prod', corsOrigin: 'https://app.example.com' });
    const service = buildApp(app);
    expect(() => app.synth()).not.toThrow();
    const data = Template.fromStack(service.data);
    data.hasResourceProperties('AWS::RDS::DBInstance', { MultiAZ: true, DeletionProtection: true });
    data.hasResource('AWS::RDS::DBInstance', { DeletionPolicy: 'Retain' });
    data.resourceCountIs('AWS::EC2::NatGateway', 2);
    Template.fromStack(service.identity).hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
    });
    Template.fromStack(service.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com'] }),
    });
    expect(Stack.of(service.api).stackName).toBe('ias-prod-api');
  });
});
