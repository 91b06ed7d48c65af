/**
 * The one place a manifest FunctionSpec becomes a Lambda function: runtime, bundling, logs, tracing,
 * network placement, and exactly the environment and grants its `uses` name (service-resources.ts).
 */
import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '../../layers/core/config';
import { GENERATION_CAP_ENV, RATE_LIMITS_ENV } from '../../layers/core/ratelimit/limits';
import type { FunctionSpec } from '../manifest';
import { PROJECT_ROOT } from '../paths';
import type { StageConfig } from '../stage-config';
import { acknowledgeMatching } from './nag';
import { BINDINGS, type ServiceResources } from './service-resources';

/** Bundled by the Lambda runtime (SDK v3) or only used by the local twin. */
export const EXTERNAL_MODULES = ['@aws-sdk/*', '@electric-sql/*', 'kysely-pglite-dialect', 'fauxqs'];

export const SERVICE_NAME = 'investigation-analysis';

export interface ServiceFunctionProps {
  spec: FunctionSpec;
  resources: ServiceResources;
  config: StageConfig;
}

export class ServiceFunction extends NodejsFunction {
  readonly spec: FunctionSpec;

  constructor(scope: Construct, { spec, resources, config }: ServiceFunctionProps) {
    const { database, identity } = resources;
    const inVpc = spec.uses.includes('database');
    super(scope, spec.id, {
      description: spec.description,
      entry: path.join(PROJECT_ROOT, spec.entry),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      timeout: Duration.seconds(spec.timeoutSeconds),
      memorySize: spec.memoryMb,
      tracing: lambda.Tracing.ACTIVE,
      logGroup: new logs.LogGroup(scope, `${spec.id}-logs`, {
        logGroupName: `/${config.prefix}/functions/${spec.id}`,
        retention: config.logRetention,
        removalPolicy: config.removalPolicy,
      }),
      environment: {
        [ENV.functionId]: spec.id,
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        NODE_OPTIONS: '--enable-source-maps',
        // cron routes accept an admin token, so every handler can verify one
        [ENV.jwtIssuer]: identity.issuer,
        [ENV.jwtAudience]: identity.client.userPoolClientId,
        ...Object.assign({}, ...spec.uses.map((use) => BINDINGS[use].env(resources))),
        // limit overrides from CDK context, only where they apply (HTTP routes; generation starters)
        ...(config.limits.rateLimits && spec.triggers.some((t) => t.kind === 'http') && { [RATE_LIMITS_ENV]: config.limits.rateLimits }),
        ...(config.limits.generationCap && spec.uses.includes('generationQueue') && { [GENERATION_CAP_ENV]: String(config.limits.generationCap) }),
      },
      // only the database is inside the VPC; everything else is reached over endpoints or the NAT
      ...(inVpc && {
        vpc: database.vpc,
        vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
        securityGroups: [database.clients],
      }),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        target: 'node22',
        format: OutputFormat.CJS,
        externalModules: EXTERNAL_MODULES,
      },
    });
    this.spec = spec;
    for (const use of spec.uses) BINDINGS[use].grant(resources, this);

    // the partition shows as <AWS::Partition> or a literal, depending on the stack's environment
    const managedPolicy = (name: string) => new RegExp(`^AwsSolutions-IAM4\\[Policy::arn:(<AWS::Partition>|[\\w-]+):iam::aws:policy/service-role/${name}\\]$`);
    acknowledgeMatching(this, managedPolicy('AWSLambdaBasicExecutionRole'),
      "AWS-managed minimum for writing the function's own logs (CreateLogGroup/CreateLogStream/PutLogEvents).");
    acknowledgeMatching(this, managedPolicy('AWSLambdaVPCAccessExecutionRole'),
      "AWS-managed minimum for managing the function's ENIs in the VPC; the EC2 network-interface actions have no resource-level scoping.");
    const ack = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    ack('AwsSolutions-L1', 'nodejs22.x is the pinned target runtime of the service (bundles target node22, local tooling runs Node 22); moving to nodejs24.x is a deliberate upgrade.');
    ack('AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no resource-level permissions; no other statement uses *.');
  }
}
