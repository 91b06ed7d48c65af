/**
 * The resources the data and identity stacks publish for the functions of other stacks, and how a consumer
 * stack sees them: as constructs imported from SSM-shared values (shared-values.ts), never by reference, so a
 * replaced proxy, bucket, secret, user pool or client reaches the functions at the next deploy.
 */
import { Annotations, type Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';
import { serviceQueues, type DatabaseResources, type IdentityResources, type ServiceResources } from './service-resources';
import { notShared, readShared, shareValue, type SharedValue } from './shared-values';

export interface PublishedData {
  /** the app subnets (one per zone), where functions that use the database run */
  appSubnetIds: SharedValue[];
  databaseClientsGroupId: SharedValue;
  proxy: { arn: SharedValue; endpoint: SharedValue };
  filesBucket: { arn: SharedValue; name: SharedValue };
  cronSecretArn: SharedValue;
  webhookSecretArn: SharedValue;
  /** the database's name and user: fixed by the code, not by a resource */
  database: Pick<DatabaseResources, 'name' | 'user'>;
}

export interface PublishedIdentity {
  userPoolArn: SharedValue;
  clientId: SharedValue;
  issuer: SharedValue;
}

export interface DataToPublish {
  vpc: ec2.IVpc;
  database: DatabaseResources;
  filesBucket: s3.IBucket;
  cronSecret: secretsmanager.ISecret;
  webhookSecret: secretsmanager.ISecret;
}

/** Called by the data stack on its own resources. */
export const publishData = (stack: Stack, prefix: string, r: DataToPublish): PublishedData => {
  const share = (key: string, value: string, description: string) => shareValue(stack, prefix, key, value, description);
  const { proxy, clients } = r.database;
  return {
    appSubnetIds: r.vpc
      .selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS })
      .subnetIds.map((id, i) => share(`network/app-subnet-${i + 1}`, id, `App subnet ${i + 1} (functions that use the database)`)),
    databaseClientsGroupId: share('network/database-clients-group', clients.securityGroupId, "The database clients' security group"),
    proxy: {
      arn: share('database/proxy-arn', proxy.dbProxyArn, 'RDS Proxy ARN'),
      endpoint: share('database/proxy-endpoint', proxy.endpoint, 'RDS Proxy endpoint'),
    },
    filesBucket: {
      arn: share('files/bucket-arn', r.filesBucket.bucketArn, 'Files bucket ARN'),
      name: share('files/bucket-name', r.filesBucket.bucketName, 'Files bucket name'),
    },
    cronSecretArn: share('secrets/cron-arn', r.cronSecret.secretArn, 'Cron bearer secret ARN'),
    webhookSecretArn: share('secrets/webhook-arn', r.webhookSecret.secretArn, 'Webhook signing secret ARN'),
    database: { name: r.database.name, user: r.database.user },
  };
};

/** Called by the identity stack on its own user pool and client. */
export const publishIdentity = (stack: Stack, prefix: string, identity: IdentityResources): PublishedIdentity => ({
  userPoolArn: shareValue(stack, prefix, 'identity/user-pool-arn', identity.userPool.userPoolArn, 'User pool ARN'),
  clientId: shareValue(stack, prefix, 'identity/spa-client-id', identity.client.userPoolClientId, "The SPA's user pool client id"),
  issuer: shareValue(stack, prefix, 'identity/issuer', identity.issuer, "JWT issuer of the pool's tokens"),
});

/** A value made on first use, then kept: a stack imports (and reads the parameters of) only what its functions use. */
const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

/** What a stack's service functions may be bound to, imported into it (under one `Shared` construct) as they use it. */
export const serviceResourcesIn = (
  stack: Stack,
  { data, identity, config }: { data: PublishedData; identity: PublishedIdentity; config: StageConfig },
): ServiceResources => {
  const scope = new Construct(stack, 'Shared');
  const read = (value: SharedValue) => readShared(stack, value);
  const database = once((): DatabaseResources => {
    const subnetIds = data.appSubnetIds.map(read);
    const vpc = ec2.Vpc.fromVpcAttributes(scope, 'Vpc', {
      vpcId: notShared("The functions' VPC id"),
      availabilityZones: stack.availabilityZones.slice(0, subnetIds.length),
      privateSubnetIds: subnetIds,
    });
    // Lambda's VpcConfig names subnets, not route tables
    for (const subnet of vpc.privateSubnets) {
      Annotations.of(subnet).acknowledgeWarning('@aws-cdk/aws-ec2:noSubnetRouteTableId', 'Only placed functions in; no route is read.');
    }
    return {
      vpc,
      proxy: rds.DatabaseProxy.fromDatabaseProxyAttributes(scope, 'DatabaseProxy', {
        dbProxyArn: read(data.proxy.arn),
        dbProxyName: notShared("The RDS Proxy's name"),
        endpoint: read(data.proxy.endpoint),
        securityGroups: [],
      }),
      clients: ec2.SecurityGroup.fromSecurityGroupId(scope, 'DatabaseClients', read(data.databaseClientsGroupId), { mutable: false }),
      ...data.database,
    };
  });
  const filesBucket = once(() =>
    s3.Bucket.fromBucketAttributes(scope, 'Files', { bucketArn: read(data.filesBucket.arn), bucketName: read(data.filesBucket.name) }),
  );
  const cronSecret = once(() => secretsmanager.Secret.fromSecretCompleteArn(scope, 'CronSecret', read(data.cronSecretArn)));
  const webhookSecret = once(() => secretsmanager.Secret.fromSecretCompleteArn(scope, 'WebhookSecret', read(data.webhookSecretArn)));
  const identityResources = once(
    (): IdentityResources => ({
      userPool: cognito.UserPool.fromUserPoolArn(scope, 'Users', read(identity.userPoolArn)),
      client: cognito.UserPoolClient.fromUserPoolClientId(scope, 'SpaClient', read(identity.clientId)),
      issuer: read(identity.issuer),
    }),
  );
  return {
    get database() {
      return database();
    },
    get filesBucket() {
      return filesBucket();
    },
    get cronSecret() {
      return cronSecret();
    },
    get webhookSecret() {
      return webhookSecret();
    },
    get identity() {
      return identityResources();
    },
    queues: serviceQueues(stack, config.prefix),
    ai: config.ai,
  };
};
