/**
 * The attempt-timeout override in CDK: context `aiAttemptTimeoutMs` reaches every function that calls
 * Bedrock as AI_ATTEMPT_TIMEOUT_MS (the twin renders the same template); no other function gets it, no
 * function gets it when the stage keeps the code's defaults, and a malformed value fails the synth.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { callsBedrock, functions } from '../../lib/manifest';
import { buildApp } from '../../lib/stacks';

const cdkContext = (JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
const synth = (context: Record<string, unknown>) => {
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

test('aiAttemptTimeoutMs goes to the Bedrock-calling functions only; without it, none has the variable', () => {
  const env = synth({ aiAttemptTimeoutMs: 'analysis=60000,embedding=5000' });
  for (const fn of functions) expect(env.get(fn.id)!.AI_ATTEMPT_TIMEOUT_MS).toBe(callsBedrock(fn) ? 'analysis=60000,embedding=5000' : undefined);
  expect(env.get('generation-worker')!.AI_ATTEMPT_TIMEOUT_MS).toBeDefined();
  expect(env.get('quality-worker')!.AI_ATTEMPT_TIMEOUT_MS).toBeDefined();
  const defaults = synth({});
  for (const fn of functions) expect(defaults.get(fn.id)!.AI_ATTEMPT_TIMEOUT_MS).toBeUndefined();
});

test('a malformed aiAttemptTimeoutMs fails the synth', () => {
  expect(() => synth({ aiAttemptTimeoutMs: 'analysis=soon' })).toThrow(/aiAttemptTimeoutMs/);
  expect(() => synth({ aiAttemptTimeoutMs: '0' })).toThrow(/aiAttemptTimeoutMs/);
});
