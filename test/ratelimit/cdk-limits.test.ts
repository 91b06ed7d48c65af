/**
 * Limit overrides in CDK: context `rateLimits` reaches every HTTP function as RATE_LIMITS and
 * `generationCap` the functions that start generations as GENERATION_CAP; nothing else gets them,
 * and a malformed value fails the synth instead of the first request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { functions } from '../../lib/manifest';
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

test('rateLimits goes to HTTP functions, generationCap to generation starters', () => {
  const env = synth({ rateLimits: 'auth=10/60,investigator=300/60', generationCap: '4' });
  for (const fn of functions) {
    const vars = env.get(fn.id)!;
    expect(vars.RATE_LIMITS).toBe(fn.triggers.some((t) => t.kind === 'http') ? 'auth=10/60,investigator=300/60' : undefined);
    expect(vars.GENERATION_CAP).toBe(fn.uses.includes('generationQueue') ? '4' : undefined);
  }
  expect(env.get('analysis-create')!.GENERATION_CAP).toBe('4');
});

test('malformed overrides fail the synth', () => {
  expect(() => synth({ rateLimits: 'investigator=lots' })).toThrow(/RATE_LIMITS/);
  expect(() => synth({ generationCap: '0' })).toThrow(/generationCap/);
});
