/**
 * cdk-nag (AwsSolutions pack) as a CDK validation plugin: `cdk synth` fails on any finding that is
 * neither fixed nor acknowledged with a reason.
 *
 * Acknowledge a finding whose id is known up front with `Validations.of(construct).acknowledge(...)`.
 * cdk-nag 3 matches acknowledgements by exact id, and some ids embed a value that only exists after
 * synthesis, e.g. a shared value's parameter `AwsSolutions-IAM5[Resource::<SsmParameterValue…Parameter>/*]`, or
 * text that depends on the stack's environment (a partition literal). For those, `acknowledgeMatching` records a pattern on a construct; at validation time the plugin
 * turns each matching finding under that construct into an ordinary acknowledgement (exact id and
 * reason, in the construct's metadata and the validation report) before the pack's final pass.
 */
import { Validations, type IPolicyValidationContext, type IPolicyValidationPlugin, type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

interface PatternAcknowledgement {
  finding: RegExp;
  reason: string;
}

const patterns = new WeakMap<IConstruct, PatternAcknowledgement[]>();

/** Acknowledge findings of `scope` or anything under it whose id matches `finding`. */
export const acknowledgeMatching = (scope: IConstruct, finding: RegExp, reason: string): void => {
  patterns.set(scope, [...(patterns.get(scope) ?? []), { finding, reason }]);
};

const constructAt = (root: IConstruct, path: string): IConstruct | undefined =>
  path.split('/').reduce<IConstruct | undefined>((node, id) => node?.node.tryFindChild(id), root);

const patternFor = (node: IConstruct, finding: string): PatternAcknowledgement | undefined => {
  for (let at: IConstruct | undefined = node; at; at = at.node.scope) {
    const match = patterns.get(at)?.find((p) => p.finding.test(finding));
    if (match) return match;
  }
  return undefined;
};

export class NagChecks implements IPolicyValidationPlugin {
  private readonly pack: AwsSolutionsChecks;

  constructor(scope: IConstruct) {
    this.pack = new AwsSolutionsChecks(scope);
  }

  get name(): string {
    return this.pack.name;
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const first = this.pack.validate(context);
    let acknowledged = false;
    for (const violation of first.violations) {
      for (const { constructPath } of violation.violatingResources) {
        const node = constructPath === undefined ? undefined : constructAt(context.appConstruct, constructPath);
        const pattern = node && patternFor(node, violation.ruleName);
        if (node && pattern) {
          Validations.of(node).acknowledge({ id: violation.ruleName, reason: pattern.reason });
          acknowledged = true;
        }
      }
    }
    return acknowledged ? this.pack.validate(context) : first;
  }
}
