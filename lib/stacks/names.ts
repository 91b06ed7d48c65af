/**
 * The physical names a stage fixes, and what any stack derives from them without a cross-stack reference
 * (shared-values.ts says why). A resource with a fixed name cannot be replaced without a new name — CloudFormation
 * refuses — so an ARN or URL built from one stays true. Functions are named in the manifest (deployedFunctionName).
 */
import { ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { deployedFunctionName, scheduleFailuresQueueName, type QueueName } from '#manifest';

export const queueName = (prefix: string, name: QueueName): string => `${prefix}-${name}`;
export const deadLetterQueueName = (prefix: string, name: QueueName): string => `${prefix}-${name}-dlq`;
/** where the schedules' failed deliveries and the scheduled functions' failed runs go (schedules-stack.ts) */
export { scheduleFailuresQueueName };
export const functionLogGroupName = (prefix: string, id: string): string => `/${prefix}/functions/${id}`;
export const apiAccessLogGroupName = (prefix: string): string => `/${prefix}/api/access`;
export const databaseInstanceIdentifier = (prefix: string): string => `${prefix}-db`;

/** A queue's ARN and URL from its name, in the stack's account and region. */
export const queueArnOf = (scope: Construct, name: string): string =>
  Stack.of(scope).formatArn({ service: 'sqs', resource: name, arnFormat: ArnFormat.NO_RESOURCE_NAME });
export const queueUrlOf = (name: string): string => `https://sqs.${Aws.REGION}.${Aws.URL_SUFFIX}/${Aws.ACCOUNT_ID}/${name}`;

/** A function's ARN from its id. */
export const functionArnOf = (scope: Construct, prefix: string, id: string): string =>
  Stack.of(scope).formatArn({
    service: 'lambda',
    resource: 'function',
    resourceName: deployedFunctionName(prefix, id),
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/** A queue of the stage by its fixed name, in any stack (metrics, grants). */
export const queueNamed = (scope: Construct, id: string, name: string): sqs.IQueue =>
  sqs.Queue.fromQueueAttributes(scope, id, { queueArn: queueArnOf(scope, name), queueUrl: queueUrlOf(name), queueName: name });
