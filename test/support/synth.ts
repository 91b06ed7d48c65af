/**
 * The app synthesized in-process with cdk.json's context plus a test's, bundling skipped: each
 * function's environment variables by manifest id (the identity, API and worker stacks hold them all).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../lib/stacks';

const cdkContext = (JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

export const functionEnvironments = (context: Record<string, unknown>): Map<string, Record<string, string>> => {
  const service = buildApp(new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } }));
  const env = new Map<string, Record<string, string>>();
  for (const stack of [service.identity, service.api, service.workers]) {
    for (const resource of Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))) {
      const variables = (resource.Properties as { Environment: { Variables: Record<string, string> } }).Environment.Variables;
      env.set(variables.FUNCTION_ID!, variables);
    }
  }
  return env;
};
