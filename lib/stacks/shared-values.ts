/**
 * How a value made in one stack reaches another: never as a CloudFormation cross-stack reference. A weak
 * one (`Fn::GetStackOutput`) is resolved only when the consumer's own template changes, and `cdk deploy` skips
 * a stack whose template did not: a replaced proxy, user pool client or distribution would leave the
 * consumers on the old value. A strong one (an export) blocks the replacement instead. Every value that
 * crosses takes one of two ways (test/infra/shared-values.synth.test.ts holds every template to it):
 *
 * - **a name the stage fixes** (functions, log groups, queues, the database instance; `names.ts`): a resource
 *   with a fixed physical name cannot be replaced without a new name, so a value derived from it stays true;
 * - **an SSM parameter** the producer writes (`/<prefix>/shared/<key>`, this module), which the consumer
 *   reads as a template parameter of type `AWS::SSM::Parameter::Value<String>`. CloudFormation resolves such a
 *   parameter afresh on every stack update, and the CDK CLI deploys a stack that has one every time (it cannot
 *   know the value is unchanged), so `cdk deploy --all` carries a replaced producer's new value to each
 *   consumer, in dependency order: the consumer depends on its producer.
 */
import { Lazy, type Stack } from 'aws-cdk-lib';
import * as ssm from 'aws-cdk-lib/aws-ssm';

/** A value its producer stack publishes in SSM Parameter Store. */
export interface SharedValue {
  readonly producer: Stack;
  readonly parameterName: string;
}

/** The parameter every shared value of a stage lives under. */
const sharedParameterName = (prefix: string, key: string): string => `/${prefix}/shared/${key}`;

/** Publishes a value its stack makes (a token of its own resources) under `key`. */
export const shareValue = (producer: Stack, prefix: string, key: string, value: string, description: string): SharedValue => {
  const parameterName = sharedParameterName(prefix, key);
  new ssm.StringParameter(producer, `Shared-${key.replaceAll('/', '-')}`, { parameterName, stringValue: value, description });
  return { producer, parameterName };
};

/** A shared value in a consumer stack: its parameter, resolved at each deploy, after the producer's. */
export const readShared = (consumer: Stack, { producer, parameterName }: SharedValue): string => {
  if (producer === consumer) throw new Error(`${parameterName} is ${producer.stackName}'s own value: use the resource itself`);
  consumer.addStackDependency(producer, `reads ${parameterName}`);
  return ssm.StringParameter.valueForStringParameter(consumer, parameterName);
};

/**
 * An attribute an imported construct requires but no consumer template uses (a VPC's id, a proxy's name): it is not
 * shared, so that no stack reads a parameter it never uses; rendering it fails the synth, naming what to share.
 */
export const notShared = (what: string): string =>
  Lazy.string({
    produce: () => {
      throw new Error(`${what} is not shared with other stacks: share it (lib/stacks/shared-values.ts) before a consumer uses it`);
    },
  });
