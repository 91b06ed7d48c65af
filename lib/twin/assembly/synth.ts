/**
 * `cdk synth` for the local twin, run in a child process (aws-cdk-lib stays out of the twin's own
 * process): the stage's app built exactly as bin/app.ts builds it, with the project's cdk.json context
 * plus the twin's, written as a cloud assembly. Two things differ from `npx cdk synth`, neither of which
 * changes a template: handler bundling is skipped (the twin bundles the same entries with the same
 * settings, ./bundles.ts), and so are the reviews of the result (cdk-nag and CloudFormation validation,
 * which CI runs on every change). Beside the templates it writes which handler module each service
 * function runs: a template names only a code asset, the construct tree knows the entry.
 *
 *   tsx lib/twin/assembly/synth.ts <outdir> '<context JSON>'
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, type CfnResource } from 'aws-cdk-lib';
import { buildApp } from '../../stacks';
import { synthApp } from '../../stacks/synth-app';
import { ServiceLambda } from '../../stacks/service-function';
import { FUNCTIONS_FILE, type FunctionEntry } from './assembly';

export const synthesize = (outdir: string, context: Record<string, string>): void => {
  const app = synthApp({ outdir, context, cloudFormationValidation: false });
  buildApp(app, { nag: false, web: false }); // the twin serves the web app itself (same origin as the API), from no build
  app.synth();
  const entries: FunctionEntry[] = app.node
    .findAll()
    .filter((c): c is ServiceLambda => c instanceof ServiceLambda)
    .map((fn) => {
      const stack = Stack.of(fn);
      return {
        id: fn.node.id,
        stack: stack.stackName,
        logicalId: stack.getLogicalId(fn.node.defaultChild as CfnResource),
        entry: fn.entry,
      };
    });
  writeFileSync(join(outdir, FUNCTIONS_FILE), JSON.stringify(entries, null, 1));
};

if (require.main === module) {
  const [outdir, context = '{}'] = process.argv.slice(2);
  if (!outdir) throw new Error('usage: synth.ts <outdir> [context JSON]');
  synthesize(outdir, JSON.parse(context) as Record<string, string>);
}
