/**
 * The one place a manifest FunctionSpec becomes a Lambda function: runtime, bundling, logs, tracing,
 * network placement, and exactly the environment and grants its `uses` name (service-resources.ts).
 * ServiceLambda holds what every function of the app shares (the deploy-time migration function too).
 */
import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { BUNDLING } from '../bundling';
import { deployedFunctionName, functionFacts, queuesAiWork, type FunctionSpec } from '#manifest';
import { PROJECT_ROOT } from '../paths';
import { ENV, SERVICE_NAME } from '#manifest/runtime-names';
import type { StageConfig } from '../stage-config';
import { functionLogGroupName, queueArnOf, scheduleFailuresQueueName } from './names';
import { acknowledgeMatching } from './nag';
import { BINDINGS, type DatabaseResources, type ServiceResources } from './service-resources';

export { SERVICE_NAME };

/**
 * The functions' Powertools service name, per stage (`investigation-analysis-prod`): it is the `service`
 * field of every log line and trace and the dimension of the service's EMF metrics, so two stages in one account
 * never feed each other's alarms.
 */
export const serviceNameOf = (config: Pick<StageConfig, 'stage'>): string => `${SERVICE_NAME}-${config.stage}`;

/** Lambda Insights extension (arm64 layer, per region): memory and CPU metrics in the LambdaInsights namespace. */
const INSIGHTS_VERSION = lambda.LambdaInsightsVersion.VERSION_1_0_498_0;

/** Deployed name of a function (manifest.ts: fixed, so alarms, dashboards and operator commands can name it). */
export const functionName = (config: Pick<StageConfig, 'prefix'>, id: string): string => deployedFunctionName(config.prefix, id);

// the partition shows as <AWS::Partition> or a literal, depending on the stack's environment
const managedPolicy = (name: string) =>
  new RegExp(`^AwsSolutions-IAM4\\[Policy::arn:(<AWS::Partition>|[\\w-]+):iam::aws:policy/${name}\\]$`);

export interface ServiceLambdaProps {
  config: StageConfig;
  description: string;
  /** handler module relative to the project root (exporting `handler`) */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
  /** run in the VPC's app subnets with the database clients' security group */
  database?: DatabaseResources;
}

/** nodejs24.x on arm64, esbuild-bundled, its own log group with the stage's retention, X-Ray, Lambda Insights. */
export class ServiceLambda extends NodejsFunction {
  /** the handler module, relative to the project root (the local twin bundles it as this function's code) */
  readonly entry: string;

  constructor(
    scope: Construct,
    id: string,
    { config, description, entry, timeoutSeconds, memoryMb, environment, database }: ServiceLambdaProps,
  ) {
    super(scope, id, {
      functionName: functionName(config, id),
      description,
      entry: path.join(PROJECT_ROOT, entry),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      timeout: Duration.seconds(timeoutSeconds),
      memorySize: memoryMb,
      tracing: lambda.Tracing.ACTIVE,
      insightsVersion: INSIGHTS_VERSION,
      logGroup: new logs.LogGroup(scope, `${id}-logs`, {
        logGroupName: functionLogGroupName(config.prefix, id),
        retention: config.logRetention,
        removalPolicy: config.removalPolicy,
      }),
      environment: { [ENV.serviceName]: serviceNameOf(config), ...environment },
      // the proxy is reached inside the VPC; AWS services over its endpoints (a stage without them: the NAT), Cognito and the fallback region over the NAT
      ...(database && {
        vpc: database.vpc,
        vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
        securityGroups: [database.clients],
      }),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        minify: BUNDLING.minify,
        sourceMap: BUNDLING.sourceMap,
        sourcesContent: BUNDLING.sourcesContent,
        target: BUNDLING.target,
        format: OutputFormat.CJS,
        mainFields: [...BUNDLING.mainFields],
        esbuildArgs: { '--alias': Object.entries(BUNDLING.alias).map(([name, path]) => `${name}=${path}`) },
        externalModules: [...BUNDLING.externalModules],
        define: { ...BUNDLING.define },
      },
    });

    this.entry = entry;
    acknowledgeMatching(
      this,
      managedPolicy('service-role/AWSLambdaBasicExecutionRole'),
      "AWS-managed minimum for writing the function's own logs (CreateLogGroup/CreateLogStream/PutLogEvents).",
    );
    acknowledgeMatching(
      this,
      managedPolicy('service-role/AWSLambdaVPCAccessExecutionRole'),
      "AWS-managed minimum for managing the function's ENIs in the VPC; the EC2 network-interface actions have no resource-level scoping.",
    );
    acknowledgeMatching(
      this,
      managedPolicy('CloudWatchLambdaInsightsExecutionRolePolicy'),
      'AWS-managed policy of the Lambda Insights extension: it writes only to the /aws/lambda-insights log group, and AWS keeps it in step with the extension.',
    );
    const ack = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    ack(
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no resource-level permissions; no other statement uses *.',
    );
  }
}

export interface ServiceFunctionProps {
  spec: FunctionSpec;
  /** what the function may be bound to; the user pool's trigger, deployed with the pool, gets none */
  resources: ServiceResources | undefined;
  config: StageConfig;
}

/** Cron routes accept an admin token, so their handlers verify one against the pool; no other handler reads a token. */
const verifiesTokens = (spec: FunctionSpec): boolean => spec.triggers.some((t) => t.kind === 'http' && t.access === 'cron');
const isHttp = (spec: FunctionSpec): boolean => spec.triggers.some((t) => t.kind === 'http');

/** A manifest function: ServiceLambda plus exactly the environment and grants its `uses` name. */
export class ServiceFunction extends ServiceLambda {
  readonly spec: FunctionSpec;

  constructor(scope: Construct, { spec, resources, config }: ServiceFunctionProps) {
    if (!resources && (spec.uses.length > 0 || verifiesTokens(spec)))
      throw new Error(`${spec.id} uses resources, so it cannot be deployed with the user pool`);
    super(scope, spec.id, {
      config,
      description: spec.description,
      entry: spec.entry,
      timeoutSeconds: spec.timeoutSeconds,
      memoryMb: spec.memoryMb,
      environment: {
        [ENV.functionId]: spec.id,
        [ENV.functionFacts]: JSON.stringify(functionFacts(spec)),
        ...(resources &&
          verifiesTokens(spec) && {
            [ENV.jwtIssuer]: resources.identity.issuer,
            [ENV.jwtAudience]: resources.identity.client.userPoolClientId,
          }),
        ...Object.assign({}, ...spec.uses.map((use) => BINDINGS[use].env(resources!))),
        // limit overrides from CDK context, only where they apply (HTTP routes; the routes that queue AI work:
        // generations, regenerations and manual quality checks count toward the cap alike)
        ...(config.limits.rateLimits && isHttp(spec) && { [ENV.rateLimits]: config.limits.rateLimits }),
        ...(config.limits.generationCap && queuesAiWork(spec) && { [ENV.generationCap]: String(config.limits.generationCap) }),
        // the analysis workers hold their analyses with it
        ...(config.analysisLeaseSeconds !== undefined &&
          spec.triggers.some((t) => t.kind === 'queue') && { [ENV.analysisLeaseSeconds]: String(config.analysisLeaseSeconds) }),
        // the function that retrieves evidence for an analysis (the generation worker) applies the floor
        ...(config.retrievalMinSimilarity !== undefined &&
          spec.uses.includes('bedrockAnalysis') && { [ENV.retrievalMinSimilarity]: String(config.retrievalMinSimilarity) }),
      },
      // only the database is inside the VPC
      ...(spec.uses.includes('database') && { database: resources!.database }),
    });
    this.spec = spec;
    for (const use of spec.uses) BINDINGS[use].grant(resources!, this);
    // a scheduled run that fails inside the function goes to the schedules' failure queue, sent with this role
    // (schedules-stack.ts sets the destination; the queue is named, so no reference crosses the stacks)
    if (spec.triggers.some((t) => t.kind === 'schedule')) {
      iam.Grant.addToPrincipal({
        grantee: this,
        actions: ['sqs:SendMessage'],
        resourceArns: [queueArnOf(this, scheduleFailuresQueueName(config.prefix))],
      });
    }
  }
}
