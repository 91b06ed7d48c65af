/**
 * Operations: the alarm topic (alarms and the dashboard arrive with a later issue and publish here).
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';

export interface ObservabilityStackProps extends StackProps {
  config: StageConfig;
}

export class ObservabilityStack extends Stack {
  readonly alarmTopic: sns.Topic;

  constructor(scope: Construct, id: string, { config, ...props }: ObservabilityStackProps) {
    super(scope, id, props);
    // a customer-managed key: CloudWatch alarms cannot publish to a topic under the AWS-managed SNS key
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `${config.prefix} alarm topic encryption`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });
    key.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'], // in a key policy, * is this key
    }));
    this.alarmTopic = new sns.Topic(this, 'Alarms', {
      displayName: `${config.prefix} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
  }
}
