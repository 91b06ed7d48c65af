/**
 * A CDK app as bin/app.ts gets one under `cdk synth`: cdk.json's context plus the caller's, with handler bundling
 * skipped (a template names the code asset either way, so no template changes). For the twin's synth, `npm run cost`
 * and the tests, which read templates and never deploy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { PROJECT_ROOT } from '../paths';

export interface SynthAppOptions {
  /** the cloud assembly's folder (CDK's default is a new temporary folder nothing removes, 25 MB a stage) */
  outdir: string;
  context?: Record<string, unknown>;
  /** CDK's built-in CloudFormation validation at synth, as `cdk synth` runs it (its schemas cost ~7 s of CPU to load) */
  cloudFormationValidation?: boolean;
}

export const synthApp = ({ outdir, context = {}, cloudFormationValidation = true }: SynthAppOptions): App => {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return new App({
    outdir,
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: cloudFormationValidation,
  });
};
