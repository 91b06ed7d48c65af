/**
 * Stateful resources: the VPC, PostgreSQL behind RDS Proxy (migrated on every deploy), the files bucket
 * and the service's secrets.
 */
import { Aws, CfnCondition, Duration, Fn, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';
import { FILE_PREFIXES } from '#manifest/runtime-names';
import { Migrations } from './migrations';
import { databaseInstanceIdentifier } from './names';
import { publishData, type PublishedData } from './published-resources';
import type { DatabaseResources } from './service-resources';
import type { AppOrigin } from './web-stack';

/** The database name (layers/core/db/connection.ts defaults to the same). */
const DATABASE_NAME = 'analysis';
/** The database user the generated secret holds: the proxy signs in as it, the functions connect as it with IAM auth tokens. */
const DATABASE_USER = 'analysis_app';
const POSTGRES_PORT = 5432;

/**
 * The browser's access to presigned URLs of the files bucket: it PUTs a file (Content-Type is the one header it
 * sets; the browser adds Content-Length, which needs no preflight) and GETs or HEADs one, and may read the ETag.
 */
const FILES_CORS = {
  allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
  allowedHeaders: ['content-type'],
  exposedHeaders: ['ETag'],
  maxAgeSeconds: 3600,
} as const;

/** How long uploaded files wait under their prefix before the bucket deletes them (FILE_PREFIXES). */
const UPLOAD_EXPIRY_DAYS = {
  /** a seed file is loaded within minutes of its upload (layers/core/seed/import.ts) and never read again */
  seeds: 1,
  /**
   * a bulk import is processed a part at a time in the background; its file stays as long as the imports DLQ keeps
   * a message (14 days, workers-stack.ts), so a message redriven from there still finds it
   */
  imports: 14,
} as const;

export interface DataStackProps extends StackProps {
  config: StageConfig;
  /** the SPA's origin: the files bucket's CORS allows it, as the API's does (buildApp gives both the same) */
  appOrigin: (consumer: Stack) => AppOrigin;
}

export class DataStack extends Stack {
  readonly filesBucket: s3.Bucket;
  readonly migrations: Migrations;
  /** what the stacks of other functions read (published-resources.ts) */
  readonly published: PublishedData;

  constructor(scope: Construct, id: string, { config, appOrigin, ...props }: DataStackProps) {
    super(scope, id, props);
    const { removalPolicy, logRetention: retention } = config;
    const ack = (construct: Construct, id: string, reason: string) => Validations.of(construct).acknowledge({ id, reason });

    // ── network ──────────────────────────────────────────────────────────────────────────────
    // StageConfig.natInstanceType: dev's NAT is an instance, prod's are gateways
    const natInstances =
      config.natInstanceType === undefined
        ? undefined
        : ec2.NatProvider.instanceV2({
            instanceType: new ec2.InstanceType(config.natInstanceType),
            associatePublicIpAddress: true,
            defaultAllowedTraffic: ec2.NatTrafficDirection.OUTBOUND_ONLY,
          });
    const vpcCidr = '10.0.0.0/16'; // CDK's default, named for the NAT instance's rule (cdk-nag cannot read a token there)
    const vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(vpcCidr),
      maxAzs: 2,
      natGateways: config.natGateways, // StageConfig.natGateways says why so few
      ...(natInstances && { natGatewayProvider: natInstances }),
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'app', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
        { name: 'data', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
      ],
      restrictDefaultSecurityGroup: true,
      gatewayEndpoints: { S3: { service: ec2.GatewayVpcEndpointAwsService.S3 } },
      flowLogs: {
        all: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(new logs.LogGroup(this, 'FlowLogs', { retention, removalPolicy })),
          trafficType: ec2.FlowLogTrafficType.ALL,
        },
      },
    });
    if (natInstances) {
      // what the private subnets send out; nothing from outside starts a connection
      natInstances.connections.allowFrom(ec2.Peer.ipv4(vpcCidr), ec2.Port.allTraffic(), 'the VPC out through the NAT instance');
      for (const instance of natInstances.gatewayInstances) {
        ack(instance, 'AwsSolutions-EC26', 'A NAT instance: its root volume holds the operating system and no data.');
        ack(
          instance,
          'AwsSolutions-EC28',
          `${config.stage}'s NAT instance: CloudWatch's basic 5-minute metrics are enough to see it forward.`,
        );
        ack(
          instance,
          'AwsSolutions-EC29',
          `${config.stage} is disposable: its NAT instance stores nothing, and stopping it only cuts the stage's egress.`,
        );
      }
    }
    // functions that use the database run in the VPC with this group; the proxy and the endpoints admit it
    const clients = new ec2.SecurityGroup(this, 'DatabaseClients', {
      vpc,
      description: 'Service functions in the VPC (admitted by the RDS Proxy and the VPC endpoints)',
    });
    const rotation = new ec2.SecurityGroup(this, 'RotationFunction', { vpc, description: 'Database secret rotation function' });
    // what the functions call inside AWS, kept off the NAT where the stage has endpoints (StageConfig.endpointZones:
    // dev has none); open only to our own security groups
    const endpoint = (name: string, service: ec2.InterfaceVpcEndpointAwsService, ...callers: ec2.ISecurityGroup[]) => {
      const subnets = { subnets: vpc.privateSubnets.slice(0, config.endpointZones) };
      const e = vpc.addInterfaceEndpoint(name, { service, subnets, open: false });
      for (const caller of callers) e.connections.allowDefaultPortFrom(caller);
      return e;
    };
    const endpoints: ec2.InterfaceVpcEndpoint[] = [];
    if (config.endpointZones > 0) {
      endpoints.push(
        endpoint('SecretsManager', ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER, clients, rotation),
        endpoint('Sqs', ec2.InterfaceVpcEndpointAwsService.SQS, clients),
      );
      // An endpoint serves only its own region: it carries Bedrock calls only where the stack's region is the
      // AI primary region, and is not created elsewhere (those calls, like every fallback call, take the NAT).
      const bedrock = endpoint('BedrockRuntime', ec2.InterfaceVpcEndpointAwsService.BEDROCK_RUNTIME, clients);
      (bedrock.node.defaultChild as ec2.CfnVPCEndpoint).cfnOptions.condition = new CfnCondition(this, 'InAiPrimaryRegion', {
        expression: Fn.conditionEquals(Aws.REGION, config.ai.primaryRegion),
      });
    }

    // ── database ─────────────────────────────────────────────────────────────────────────────
    const instanceIdentifier = databaseInstanceIdentifier(config.prefix);
    const dbLogs = new logs.LogGroup(this, 'DatabaseLogs', {
      logGroupName: `/aws/rds/instance/${instanceIdentifier}/postgresql`,
      retention,
      removalPolicy,
    });
    const instance = new rds.DatabaseInstance(this, 'Database', {
      instanceIdentifier,
      engine: rds.DatabaseInstanceEngine.postgres({ version: rds.PostgresEngineVersion.VER_16 }),
      instanceType: new ec2.InstanceType(config.database.instanceType),
      vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      credentials: rds.Credentials.fromGeneratedSecret(DATABASE_USER),
      databaseName: DATABASE_NAME,
      port: POSTGRES_PORT,
      storageEncrypted: true,
      storageType: rds.StorageType.GP3,
      allocatedStorage: 20,
      maxAllocatedStorage: 200,
      multiAz: config.database.multiAz,
      deletionProtection: config.database.deletionProtection,
      backupRetention: Duration.days(config.database.backupRetentionDays),
      cloudwatchLogsExports: ['postgresql'],
      autoMinorVersionUpgrade: true,
      removalPolicy,
    });
    instance.node.addDependency(dbLogs);
    const secret = instance.secret!;
    instance.addRotationSingleUser({
      automaticallyAfter: Duration.days(30),
      securityGroup: rotation,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
    });

    const proxy = instance.addProxy('Proxy', {
      secrets: [secret],
      vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      requireTLS: true,
      // Clients sign in with IAM auth tokens (layers/core/db/connection.ts) and need rds-db:connect on this
      // proxy's user; only the proxy reads the secret, for each connection it opens to the instance, so
      // the 30-day rotation never reaches a function's pool.
      iamAuth: true,
    });
    proxy.connections.allowFrom(clients, ec2.Port.tcp(POSTGRES_PORT), 'service functions to RDS Proxy');
    const database: DatabaseResources = { vpc, proxy, name: DATABASE_NAME, user: DATABASE_USER, clients };
    this.migrations = new Migrations(this, 'Migrations', {
      config,
      database,
      after: [
        instance,
        proxy,
        ...endpoints,
        vpc.selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS }).internetConnectivityEstablished,
      ],
    });

    ack(
      instance,
      'AwsSolutions-RDS11',
      'Only the RDS Proxy and the rotation function reach the instance, from inside isolated subnets; a non-default port would add no protection and the proxy speaks 5432 anyway.',
    );
    if (!config.database.multiAz) ack(instance, 'AwsSolutions-RDS3', `Single-AZ in ${config.stage} to keep it cheap; prod is Multi-AZ.`);
    if (!config.database.deletionProtection)
      ack(instance, 'AwsSolutions-RDS10', `${config.stage} is disposable; prod has deletion protection.`);

    // ── files ────────────────────────────────────────────────────────────────────────────────
    const bucketDefaults = {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy,
    } satisfies s3.BucketProps;
    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
      ...bucketDefaults,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    ack(
      accessLogs,
      'AwsSolutions-S1',
      'This bucket is the server access log destination; logging it would only move the finding to another bucket.',
    );
    this.filesBucket = new s3.Bucket(this, 'Files', {
      ...bucketDefaults,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'files/',
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(30), abortIncompleteMultipartUploadAfter: Duration.days(7) },
        // seed files uploaded for `npm run seed -- --stage` and bulk import files (UPLOAD_EXPIRY_DAYS says why so long)
        { prefix: FILE_PREFIXES.seeds, expiration: Duration.days(UPLOAD_EXPIRY_DAYS.seeds) },
        { prefix: FILE_PREFIXES.imports, expiration: Duration.days(UPLOAD_EXPIRY_DAYS.imports) },
      ],
      // browsers upload and open files by presigned URL from the SPA's origin, the one the API's CORS allows
      cors: [
        {
          allowedOrigins: [appOrigin(this).url],
          allowedMethods: [...FILES_CORS.allowedMethods],
          allowedHeaders: [...FILES_CORS.allowedHeaders],
          exposedHeaders: [...FILES_CORS.exposedHeaders],
          maxAge: FILES_CORS.maxAgeSeconds,
        },
      ],
    });
    // Object Created events go to EventBridge (the workers stack's rules send them to the ingestion and imports queues).
    // Set on the CloudFormation resource itself: the L2 `eventBridgeEnabled` adds the Custom::S3BucketNotifications
    // resource and its Lambda function, which would need a role, a nag review and the twin's modelling for nothing.
    (this.filesBucket.node.defaultChild as s3.CfnBucket).notificationConfiguration = {
      eventBridgeConfiguration: { eventBridgeEnabled: true },
    };

    // ── secrets ──────────────────────────────────────────────────────────────────────────────
    const generated = { passwordLength: 48, excludePunctuation: true };
    const cronSecret = new secretsmanager.Secret(this, 'CronSecret', {
      description: 'Bearer secret of the /api/admin/cron/* routes',
      generateSecretString: generated,
      removalPolicy,
    });
    ack(
      cronSecret,
      'AwsSolutions-SMG4',
      'Only callers of the cron routes use it (EventBridge Scheduler invokes the functions directly); rotate by generating a new value, which handlers re-read on a cold start.',
    );
    const webhookSecret = new secretsmanager.Secret(this, 'WebhookSecret', {
      description: "Payment processor's webhook signing secret: replace the generated placeholder with the processor's value",
      generateSecretString: generated,
      removalPolicy,
    });
    ack(
      webhookSecret,
      'AwsSolutions-SMG4',
      "The value is issued by the payment processor; it is rotated in the processor's dashboard, not by a Lambda.",
    );
    this.published = publishData(this, config.prefix, { vpc, database, filesBucket: this.filesBucket, cronSecret, webhookSecret });
  }
}
