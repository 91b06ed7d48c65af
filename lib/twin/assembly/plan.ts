/**
 * What the twin runs, read off the synthesized cloud assembly and nothing else: every service function
 * with its resolved environment, timeout, memory, network placement and IAM policy; the HTTP API's routes,
 * authorizer, CORS and stage throttles; the queues with their redrive and policies; the event source mappings; the schedules; the
 * buckets (their EventBridge notifications and CORS) and the EventBridge rules sending to queues; the secrets; the user pool with its client, groups, attributes and triggers; the database
 * proxy. Pure: a test may change a template (drop a grant, shorten a timeout) and plan again.
 */
import type { GatewayThrottle } from '../../stacks/api-stack';
import { parseEventPattern, type EventPattern } from '../aws/event-pattern';
import { statementsOf, type PolicyStatement } from '../iam/policy';
import type { CloudAssembly, FunctionEntry } from './assembly';
import { Resolver, type ResourceRef } from './resolve';

export interface PlanFunction {
  /** construct id: the manifest id, e.g. `analysis-get` */
  id: string;
  stack: string;
  logicalId: string;
  functionName: string;
  arn: string;
  roleName: string;
  roleArn: string;
  /** handler module relative to the project root */
  entry: string;
  /** `index.handler`: file and export in the bundle */
  handler: string;
  runtime: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** exactly the template's Environment.Variables, resolved */
  environment: Record<string, string>;
  /** placed in the VPC (subnets + security groups): only such functions reach the database proxy */
  inVpc: boolean;
  /** the role's identity-based statements (inline and attached policies of the stacks) */
  policy: PolicyStatement[];
  managedPolicyArns: string[];
  /** services the function's resource policy lets invoke it (AWS::Lambda::Permission), e.g. apigateway.amazonaws.com */
  invokers: { principal: string; sourceArn?: string }[];
  /**
   * its asynchronous invocations (AWS::Lambda::EventInvokeConfig of $LATEST): the retries Lambda makes of a failed one
   * (2 without a config), and the queue ARN its failures are sent to
   */
  asyncInvoke: { maximumRetryAttempts: number; onFailure?: string };
}

export interface PlanRoute {
  routeKey: string;
  method: string;
  path: string;
  /** PlanFunction.id of the integration's function */
  functionId: string;
  authorization: 'NONE' | 'JWT';
}

export interface PlanApi {
  id: string;
  endpoint: string;
  routes: PlanRoute[];
  /**
   * The stage's throttles: its DefaultRouteSettings (each route without its own, and requests no route
   * matches) and RouteSettings by route key ("POST /api/auth/login"). None: only the account-level quota,
   * which the twin does not model.
   */
  throttles: { default?: GatewayThrottle; routes: Record<string, GatewayThrottle> };
  authorizer?: { issuer: string; audience: string[] };
  cors?: { allowOrigins: string[]; allowMethods: string[]; allowHeaders: string[]; exposeHeaders: string[]; maxAge?: number };
}

export interface PlanQueue {
  logicalId: string;
  name: string;
  url: string;
  arn: string;
  /** SQS attributes as CreateQueue takes them (VisibilityTimeout, MessageRetentionPeriod, RedrivePolicy, ...) */
  attributes: Record<string, string>;
  policy: PolicyStatement[];
}

export interface PlanEventSource {
  functionId: string;
  queueArn: string;
  batchSize: number;
  maxConcurrency?: number;
  reportBatchItemFailures: boolean;
}

export interface PlanSchedule {
  name: string;
  expression: string;
  functionId: string;
  input?: string;
  retryAttempts: number;
  maxEventAgeSeconds?: number;
  roleArn: string;
  /** the statements of the role EventBridge Scheduler invokes the target with */
  policy: PolicyStatement[];
}

/** One rule of a bucket's CorsConfiguration. */
export interface PlanCorsRule {
  allowedOrigins: string[];
  allowedMethods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
  maxAgeSeconds?: number;
}

export interface PlanBucket {
  name: string;
  arn: string;
  policy: PolicyStatement[];
  /** NotificationConfiguration.EventBridgeConfiguration: S3 sends the bucket's events to the account's default event bus */
  eventBridge: boolean;
  /** CorsConfiguration's rules, in order (S3 applies the first that matches); none: S3 refuses every CORS request */
  cors: PlanCorsRule[];
}

/** An EventBridge rule on the default event bus, with the SQS queues it targets (the only targets the twin delivers to). */
export interface PlanRule {
  name: string;
  arn: string;
  pattern: EventPattern;
  targets: { id: string; queueArn: string }[];
}

export interface PlanSecret {
  logicalId: string;
  arn: string;
  name: string;
  /** GenerateSecretString: how CloudFormation makes the value */
  generate?: {
    passwordLength?: number;
    excludePunctuation?: boolean;
    excludeCharacters?: string;
    secretStringTemplate?: string;
    generateStringKey?: string;
  };
  policy: PolicyStatement[];
}

export interface PlanUserPool {
  id: string;
  arn: string;
  issuer: string;
  mfa: 'OFF' | 'ON' | 'OPTIONAL';
  groups: string[];
  /** custom attributes declared in the schema (`custom:<name>`) and whether they may change */
  customAttributes: { name: string; mutable: boolean }[];
  clients: {
    id: string;
    name: string;
    /** attributes the client may read (undefined: all) and write (undefined: all mutable ones) */
    readAttributes?: string[];
    writeAttributes?: string[];
    accessTokenMinutes: number;
    idTokenMinutes: number;
    explicitAuthFlows: string[];
  }[];
  /** the pre-token-generation trigger: the function Cognito invokes before issuing tokens, and the event version */
  preTokenGeneration?: { functionId: string; version: string };
}

export interface PlanDatabase {
  /** RDS Proxy endpoint (host name) the functions' DB_HOST names */
  proxyEndpoint: string;
  /** the port clients connect to (RDS Proxy for PostgreSQL: 5432) */
  proxyPort: number;
  /** the proxy's resource id (`prx-…`, the last part of its ARN): IAM names a proxy user arn:aws:rds-db:<region>:<account>:dbuser:<id>/<user> */
  proxyResourceId: string;
  requireTls: boolean;
  /** IAMAuth REQUIRED: clients sign in with an RDS IAM auth token, not the secret's password */
  iamAuth: boolean;
  /** ARN of the secret the proxy signs in to the database with (and, without IAM auth, authenticates clients with) */
  secretArn: string;
  /** instance endpoint and database name the secret attachment adds to the secret */
  instance: { host: string; port: number; name: string };
}

export interface TwinPlan {
  account: string;
  region: string;
  functions: PlanFunction[];
  api: PlanApi;
  queues: PlanQueue[];
  eventSources: PlanEventSource[];
  schedules: PlanSchedule[];
  buckets: PlanBucket[];
  rules: PlanRule[];
  secrets: PlanSecret[];
  userPool: PlanUserPool;
  database: PlanDatabase;
}

const one = <T>(items: T[], what: string): T => {
  if (items.length !== 1) throw new Error(`the cloud assembly has ${items.length} ${what}; the twin renders exactly one`);
  return items[0]!;
};

interface RouteSettings {
  ThrottlingRateLimit?: number;
  ThrottlingBurstLimit?: number;
}

/** A stage's route settings as a token bucket; a bucket with one of its two figures is not one the twin guesses at. */
const throttleOf = (settings: RouteSettings | undefined, where: string): GatewayThrottle | undefined => {
  const { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit } = settings ?? {};
  if (rateLimit === undefined && burstLimit === undefined) return undefined;
  if (rateLimit === undefined || burstLimit === undefined)
    throw new Error(`${where}: the twin models a throttle with both ThrottlingRateLimit and ThrottlingBurstLimit`);
  return { rateLimit: Number(rateLimit), burstLimit: Number(burstLimit) };
};

export const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

export const planFromAssembly = (
  assembly: Pick<CloudAssembly, 'templates' | 'functions'>,
  options: { region?: string; account?: string } = {},
): TwinPlan => {
  const r = new Resolver(assembly.templates, options.region, options.account);
  const refOf = (entry: FunctionEntry): ResourceRef => ({ stack: entry.stack, logicalId: entry.logicalId });

  // ── IAM: identity policies by role name, resource policies by resource ARN ─────────────────────
  const rolePolicies = new Map<string, PolicyStatement[]>();
  for (const policy of r.all('AWS::IAM::Policy')) {
    const document = statementsOf(r.property(policy, 'PolicyDocument'));
    for (const role of asList(r.property(policy, 'Roles'))) rolePolicies.set(role, [...(rolePolicies.get(role) ?? []), ...document]);
  }

  /** A role of the assembly by ARN: its name and every identity statement it has (inline and attached). */
  const roleOf = (roleArn: string, where: string) => {
    const role = r.findByArn('AWS::IAM::Role', roleArn);
    if (!role) throw new Error(`${where}: role ${roleArn} is not in the assembly`);
    const roleName = r.physicalName(role);
    const inline = ((r.property(role, 'Policies') ?? []) as { PolicyDocument: unknown }[]).flatMap((p) => statementsOf(p.PolicyDocument));
    return { role, roleName, policy: [...inline, ...(rolePolicies.get(roleName) ?? [])] };
  };

  const asyncInvokeOf = (names: string[]): PlanFunction['asyncInvoke'] => {
    const config = r
      .all('AWS::Lambda::EventInvokeConfig')
      .find((c) => names.includes(String(r.property(c, 'FunctionName'))) && String(r.property(c, 'Qualifier')) === '$LATEST');
    if (!config) return { maximumRetryAttempts: 2 };
    const onFailure = r.property<{ OnFailure?: { Destination: string } } | undefined>(config, 'DestinationConfig')?.OnFailure;
    return {
      maximumRetryAttempts: Number(r.property(config, 'MaximumRetryAttempts') ?? 2),
      ...(onFailure && { onFailure: String(onFailure.Destination) }),
    };
  };

  const functions = assembly.functions.map((entry): PlanFunction => {
    const ref = refOf(entry);
    const props = (name: string) => r.property(ref, name);
    const roleArn = String(props('Role'));
    const { role, roleName, policy } = roleOf(roleArn, `${entry.stack}/${entry.logicalId}`);
    const environment = (props('Environment') as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    refuseOversizedEnvironment(`${entry.stack}/${entry.logicalId}`, environment);
    const arn = r.getAtt(ref, 'Arn');
    const vpc = props('VpcConfig') as { SubnetIds?: unknown[] } | undefined;
    return {
      id: entry.id,
      stack: entry.stack,
      logicalId: entry.logicalId,
      functionName: r.physicalName(ref),
      arn,
      roleName,
      roleArn,
      entry: entry.entry,
      handler: String(props('Handler')),
      runtime: String(props('Runtime')),
      timeoutSeconds: Number(props('Timeout') ?? 3),
      memoryMb: Number(props('MemorySize') ?? 128),
      environment: Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])),
      inVpc: (vpc?.SubnetIds?.length ?? 0) > 0,
      policy,
      managedPolicyArns: asList(r.property(role, 'ManagedPolicyArns')),
      invokers: r
        .all('AWS::Lambda::Permission')
        .filter((p) => [arn, r.physicalName(ref)].includes(String(r.property(p, 'FunctionName'))))
        .map((p) => ({
          principal: String(r.property(p, 'Principal')),
          ...(r.resource(p).Properties?.SourceArn !== undefined && { sourceArn: String(r.property(p, 'SourceArn')) }),
        })),
      asyncInvoke: asyncInvokeOf([arn, r.physicalName(ref)]),
    };
  });
  const functionIdByArn = (arn: string, where: string): string => {
    const fn = functions.find((f) => f.arn === arn || f.functionName === arn);
    if (!fn) throw new Error(`${where}: ${arn} is not a service function of the assembly`);
    return fn.id;
  };

  // ── HTTP API ───────────────────────────────────────────────────────────────────────────────
  const apiRef = one(r.all('AWS::ApiGatewayV2::Api'), 'HTTP APIs');
  const authorizerRef = r.all('AWS::ApiGatewayV2::Authorizer')[0];
  const jwt = authorizerRef && r.property<{ Issuer: string; Audience: string[] }>(authorizerRef, 'JwtConfiguration');
  const cors = r.property<
    { AllowOrigins?: string[]; AllowMethods?: string[]; AllowHeaders?: string[]; ExposeHeaders?: string[]; MaxAge?: number } | undefined
  >(apiRef, 'CorsConfiguration');
  const integrations = new Map(r.all('AWS::ApiGatewayV2::Integration').map((i) => [r.ref(i), String(r.property(i, 'IntegrationUri'))]));
  const routes = r.all('AWS::ApiGatewayV2::Route').map((route): PlanRoute => {
    const routeKey = String(r.property(route, 'RouteKey'));
    const [method, path] = routeKey.split(' ') as [string, string];
    const target = String(r.property(route, 'Target')).replace(/^integrations\//, '');
    const uri = integrations.get(target);
    if (!uri) throw new Error(`route ${routeKey}: no integration ${target}`);
    return {
      routeKey,
      method,
      path,
      functionId: functionIdByArn(uri, `route ${routeKey}`),
      authorization: String(r.property(route, 'AuthorizationType')) === 'JWT' ? 'JWT' : 'NONE',
    };
  });
  const stageRef = one(r.all('AWS::ApiGatewayV2::Stage'), 'HTTP API stages');
  const routeSettings = r.property<Record<string, RouteSettings> | undefined>(stageRef, 'RouteSettings') ?? {};
  const defaultThrottle = throttleOf(
    r.property<RouteSettings | undefined>(stageRef, 'DefaultRouteSettings'),
    "the stage's DefaultRouteSettings",
  );
  const api: PlanApi = {
    id: r.physicalName(apiRef),
    endpoint: r.getAtt(apiRef, 'ApiEndpoint'),
    routes,
    throttles: {
      ...(defaultThrottle && { default: defaultThrottle }),
      routes: Object.fromEntries(
        Object.entries(routeSettings).flatMap(([routeKey, settings]) => {
          // what UpdateStage refuses: settings for a route the API does not have
          if (!routes.some((route) => route.routeKey === routeKey))
            throw new Error(`the stage: Unable to find Route by key ${routeKey} within the provided RouteSettings`);
          const throttle = throttleOf(settings, `the stage's RouteSettings of ${routeKey}`);
          return throttle ? [[routeKey, throttle]] : [];
        }),
      ),
    },
    ...(jwt && { authorizer: { issuer: jwt.Issuer, audience: jwt.Audience } }),
    ...(cors && {
      cors: {
        allowOrigins: cors.AllowOrigins ?? [],
        allowMethods: cors.AllowMethods ?? [],
        allowHeaders: cors.AllowHeaders ?? [],
        exposeHeaders: cors.ExposeHeaders ?? [],
        ...(cors.MaxAge !== undefined && { maxAge: cors.MaxAge }),
      },
    }),
  };

  // ── queues, event sources, schedules ───────────────────────────────────────────────────────
  const queuePolicies = r
    .all('AWS::SQS::QueuePolicy')
    .flatMap((p) => asList(r.property(p, 'Queues')).map((url) => [url, statementsOf(r.property(p, 'PolicyDocument'))] as const));
  const queues = r.all('AWS::SQS::Queue').map((q): PlanQueue => {
    const props = r.resource(q).Properties ?? {};
    const attribute = (name: string, cfnName = name) =>
      props[cfnName] === undefined
        ? {}
        : { [name]: ((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))(r.property(q, cfnName)) };
    const url = r.ref(q);
    return {
      logicalId: q.logicalId,
      name: r.physicalName(q),
      url,
      arn: r.getAtt(q, 'Arn'),
      attributes: {
        ...attribute('VisibilityTimeout'),
        ...attribute('MessageRetentionPeriod'),
        ...attribute('RedrivePolicy'),
        ...attribute('DelaySeconds'),
        ...attribute('ReceiveMessageWaitTimeSeconds'),
        ...attribute('MaximumMessageSize'),
      },
      policy: queuePolicies.filter(([u]) => u === url).flatMap(([, s]) => s),
    };
  });
  const eventSources = r.all('AWS::Lambda::EventSourceMapping').map((m): PlanEventSource => {
    const scaling = r.property<{ MaximumConcurrency?: number } | undefined>(m, 'ScalingConfig');
    const name = String(r.property(m, 'FunctionName'));
    return {
      functionId: functionIdByArn(functions.find((f) => f.functionName === name)?.arn ?? name, `event source ${m.logicalId}`),
      queueArn: String(r.property(m, 'EventSourceArn')),
      batchSize: Number(r.property(m, 'BatchSize') ?? 10),
      ...(scaling?.MaximumConcurrency !== undefined && { maxConcurrency: scaling.MaximumConcurrency }),
      reportBatchItemFailures: asList(r.property(m, 'FunctionResponseTypes')).includes('ReportBatchItemFailures'),
    };
  });
  // what CreateEventSourceMapping refuses at deploy time: a queue that hands a message to another
  // consumer while the function may still be working on it
  for (const mapping of eventSources) {
    const queue = queues.find((q) => q.arn === mapping.queueArn);
    const fn = functions.find((f) => f.id === mapping.functionId)!;
    const visibility = Number(queue?.attributes.VisibilityTimeout ?? 30);
    if (visibility < fn.timeoutSeconds) {
      throw new Error(
        `event source of ${fn.id}: Queue visibility timeout: ${visibility} seconds is less than Function timeout: ${fn.timeoutSeconds} seconds`,
      );
    }
  }
  const schedules = r
    .all('AWS::Scheduler::Schedule')
    .filter((s) => String(r.property(s, 'State') ?? 'ENABLED') === 'ENABLED')
    .map((s): PlanSchedule => {
      const target = r.property<{
        Arn: string;
        Input?: string;
        RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
        RoleArn: string;
      }>(s, 'Target');
      return {
        name: r.physicalName(s),
        expression: String(r.property(s, 'ScheduleExpression')),
        functionId: functionIdByArn(target.Arn, `schedule ${s.logicalId}`),
        ...(target.Input !== undefined && { input: target.Input }),
        retryAttempts: target.RetryPolicy?.MaximumRetryAttempts ?? 185,
        ...(target.RetryPolicy?.MaximumEventAgeInSeconds !== undefined && {
          maxEventAgeSeconds: target.RetryPolicy.MaximumEventAgeInSeconds,
        }),
        roleArn: target.RoleArn,
        policy: roleOf(target.RoleArn, `schedule ${s.logicalId}`).policy,
      };
    });

  // ── buckets and secrets ────────────────────────────────────────────────────────────────────
  const bucketPolicies = r
    .all('AWS::S3::BucketPolicy')
    .map((p) => [String(r.property(p, 'Bucket')), statementsOf(r.property(p, 'PolicyDocument'))] as const);
  const buckets = r.all('AWS::S3::Bucket').map((b): PlanBucket => {
    const name = r.physicalName(b);
    const notifications = r.property<{ EventBridgeConfiguration?: { EventBridgeEnabled?: boolean }; [other: string]: unknown } | undefined>(
      b,
      'NotificationConfiguration',
    );
    const others = Object.keys(notifications ?? {}).filter((k) => k !== 'EventBridgeConfiguration');
    if (others.length > 0)
      throw new Error(`bucket ${b.logicalId}: the twin models EventBridge notifications only, not ${others.join(', ')}`);
    const cors =
      r.property<
        | {
            CorsRules: {
              AllowedOrigins: string[];
              AllowedMethods: string[];
              AllowedHeaders?: string[];
              ExposedHeaders?: string[];
              MaxAge?: number;
            }[];
          }
        | undefined
      >(b, 'CorsConfiguration')?.CorsRules ?? [];
    return {
      name,
      arn: r.getAtt(b, 'Arn'),
      policy: bucketPolicies.filter(([n]) => n === name).flatMap(([, s]) => s),
      eventBridge: notifications?.EventBridgeConfiguration?.EventBridgeEnabled === true,
      cors: cors.map((rule) => ({
        allowedOrigins: asList(rule.AllowedOrigins),
        allowedMethods: asList(rule.AllowedMethods),
        allowedHeaders: asList(rule.AllowedHeaders),
        exposedHeaders: asList(rule.ExposedHeaders),
        ...(rule.MaxAge !== undefined && { maxAgeSeconds: Number(rule.MaxAge) }),
      })),
    };
  });

  // ── EventBridge rules (the default bus; SQS targets as they are, nothing the twin would have to guess) ──
  const rules = r
    .all('AWS::Events::Rule')
    .filter((rule) => String(r.property(rule, 'State') ?? 'ENABLED') === 'ENABLED')
    .map((rule): PlanRule => {
      const where = `rule ${rule.logicalId}`;
      const bus = r.property<string | undefined>(rule, 'EventBusName');
      if (bus !== undefined && bus !== 'default') throw new Error(`${where}: the twin models the default event bus only, not ${bus}`);
      if (r.property(rule, 'EventPattern') === undefined) throw new Error(`${where}: the twin models rules with an event pattern only`);
      const ruleTargets = r.property<Record<string, unknown>[] | undefined>(rule, 'Targets') ?? [];
      return {
        name: r.physicalName(rule),
        arn: r.getAtt(rule, 'Arn'),
        pattern: parseEventPattern(r.property(rule, 'EventPattern'), where),
        targets: ruleTargets.map((target) => {
          const unmodelled = Object.keys(target).filter((k) => !['Id', 'Arn', 'RetryPolicy'].includes(k));
          if (unmodelled.length > 0) throw new Error(`${where}: the twin does not model a target's ${unmodelled.join(', ')}`);
          const queueArn = String(target.Arn);
          if (!queues.some((q) => q.arn === queueArn)) throw new Error(`${where}: the twin delivers to SQS queues only, not ${queueArn}`);
          return { id: String(target.Id), queueArn };
        }),
      };
    });
  const secretPolicies = r
    .all('AWS::SecretsManager::ResourcePolicy')
    .map((p) => [String(r.property(p, 'SecretId')), statementsOf(r.property(p, 'ResourcePolicy'))] as const);
  const secrets = r.all('AWS::SecretsManager::Secret').map((s): PlanSecret => {
    const arn = r.ref(s);
    const generate = r.property<Record<string, unknown> | undefined>(s, 'GenerateSecretString');
    return {
      logicalId: s.logicalId,
      arn,
      name: r.physicalName(s),
      ...(generate && {
        generate: {
          ...(generate.PasswordLength !== undefined && { passwordLength: Number(generate.PasswordLength) }),
          ...(generate.ExcludePunctuation !== undefined && { excludePunctuation: generate.ExcludePunctuation === true }),
          ...(generate.ExcludeCharacters !== undefined && { excludeCharacters: String(generate.ExcludeCharacters) }),
          ...(generate.SecretStringTemplate !== undefined && { secretStringTemplate: String(generate.SecretStringTemplate) }),
          ...(generate.GenerateStringKey !== undefined && { generateStringKey: String(generate.GenerateStringKey) }),
        },
      }),
      policy: secretPolicies.filter(([a]) => a === arn).flatMap(([, st]) => st),
    };
  });

  // ── user pool ──────────────────────────────────────────────────────────────────────────────
  const poolRef = one(r.all('AWS::Cognito::UserPool'), 'user pools');
  const poolId = r.ref(poolRef);
  const lambdaConfig = r.property<
    { PreTokenGenerationConfig?: { LambdaArn: string; LambdaVersion: string }; PreTokenGeneration?: string } | undefined
  >(poolRef, 'LambdaConfig');
  const preToken =
    lambdaConfig?.PreTokenGenerationConfig ??
    (lambdaConfig?.PreTokenGeneration ? { LambdaArn: lambdaConfig.PreTokenGeneration, LambdaVersion: 'V1_0' } : undefined);
  const schema = r.property<{ Name: string; Mutable?: boolean }[] | undefined>(poolRef, 'Schema') ?? [];
  const minutes = (value: unknown, unit: string | undefined, fallbackMinutes: number) =>
    value === undefined ? fallbackMinutes : Number(value) * ({ seconds: 1 / 60, minutes: 1, hours: 60, days: 1440 }[unit ?? 'hours'] ?? 60);
  const userPool: PlanUserPool = {
    id: poolId,
    arn: r.getAtt(poolRef, 'Arn'),
    issuer: r.getAtt(poolRef, 'ProviderURL'),
    mfa: String(r.property(poolRef, 'MfaConfiguration') ?? 'OFF') as PlanUserPool['mfa'],
    groups: r
      .all('AWS::Cognito::UserPoolGroup')
      .filter((g) => r.property(g, 'UserPoolId') === poolId)
      .map((g) => String(r.property(g, 'GroupName'))),
    customAttributes: schema
      .filter((a) => !['sub', 'email', 'email_verified', 'name'].includes(a.Name))
      .map((a) => ({ name: `custom:${a.Name}`, mutable: a.Mutable !== false })),
    clients: r
      .all('AWS::Cognito::UserPoolClient')
      .filter((c) => r.property(c, 'UserPoolId') === poolId)
      .map((c) => {
        const units = r.property<{ AccessToken?: string; IdToken?: string } | undefined>(c, 'TokenValidityUnits');
        const read = r.resource(c).Properties?.ReadAttributes;
        const write = r.resource(c).Properties?.WriteAttributes;
        return {
          id: r.ref(c),
          name: String(r.property(c, 'ClientName') ?? ''),
          ...(read !== undefined && { readAttributes: asList(r.property(c, 'ReadAttributes')) }),
          ...(write !== undefined && { writeAttributes: asList(r.property(c, 'WriteAttributes')) }),
          accessTokenMinutes: minutes(r.property(c, 'AccessTokenValidity'), units?.AccessToken, 60),
          idTokenMinutes: minutes(r.property(c, 'IdTokenValidity'), units?.IdToken, 60),
          explicitAuthFlows: asList(r.property(c, 'ExplicitAuthFlows')),
        };
      }),
    ...(preToken && {
      preTokenGeneration: {
        functionId: functionIdByArn(preToken.LambdaArn, 'the pre-token-generation trigger'),
        version: preToken.LambdaVersion,
      },
    }),
  };

  // ── database ───────────────────────────────────────────────────────────────────────────────
  const proxyRef = one(r.all('AWS::RDS::DBProxy'), 'database proxies');
  const instanceRef = one(r.all('AWS::RDS::DBInstance'), 'database instances');
  const proxyAuth = one(r.property<{ SecretArn: string; IAMAuth?: string }[]>(proxyRef, 'Auth'), 'proxy credentials');
  const engineFamily = r.property(proxyRef, 'EngineFamily');
  if (engineFamily !== 'POSTGRESQL')
    throw new Error(`the database proxy's engine family is ${String(engineFamily)}; the twin serves POSTGRESQL only`);
  const database: PlanDatabase = {
    proxyEndpoint: r.getAtt(proxyRef, 'Endpoint'),
    proxyPort: 5432,
    proxyResourceId: r.getAtt(proxyRef, 'DBProxyArn').split(':').at(-1)!,
    requireTls: r.property(proxyRef, 'RequireTLS') === true,
    iamAuth: proxyAuth.IAMAuth === 'REQUIRED',
    secretArn: proxyAuth.SecretArn,
    instance: {
      host: r.getAtt(instanceRef, 'Endpoint.Address'),
      port: Number(r.getAtt(instanceRef, 'Endpoint.Port')),
      name: String(r.property(instanceRef, 'DBName') ?? 'postgres'),
    },
  };

  return {
    account: r.account,
    region: r.region,
    functions,
    api,
    queues,
    eventSources,
    schedules,
    buckets,
    rules,
    secrets,
    userPool,
    database,
  };
};

/** Lambda's limit on a function's environment variables: their names and values together, in bytes. */
const ENVIRONMENT_LIMIT_BYTES = 4096;

/** What CreateFunction and UpdateFunctionConfiguration refuse: environment variables over 4 KB in all. */
const refuseOversizedEnvironment = (where: string, environment: Record<string, unknown>): void => {
  const bytes = Object.entries(environment).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(String(v)), 0);
  if (bytes > ENVIRONMENT_LIMIT_BYTES)
    throw new Error(
      `${where}: Lambda was unable to configure your environment variables because the environment variables you have provided exceeded the 4KB limit (${bytes} bytes)`,
    );
};

/** The value a function environment variable has in the plan (e.g. which bucket is FILES_BUCKET). */
export const environmentValue = (plan: TwinPlan, name: string): string => {
  const value = plan.functions.map((f) => f.environment[name]).find((v) => v !== undefined);
  if (value === undefined) throw new Error(`no function of the deployment has ${name}`);
  return value;
};
