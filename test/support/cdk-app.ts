/**
 * A CDK app as bin/app.ts gets one: cdk.json's context plus a test's, with handler bundling skipped
 * (a template names the code asset either way).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';

const cdkContext = (JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

export interface TestAppOptions {
  /**
   * CDK's built-in CloudFormation validation at synth (default true, as in `cdk synth`). Loading its schemas
   * costs a process ~7 s of CPU; a suite that synthesizes in its own process turns it off and asserts
   * instead that its stage passed it in synth-stages.ts, which validates every stage once per run.
   */
  cloudFormationValidation?: boolean;
}

export const newApp = (context: Record<string, unknown> = {}, options: TestAppOptions = {}): App =>
  new App({
    context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: options.cloudFormationValidation ?? true,
  });
