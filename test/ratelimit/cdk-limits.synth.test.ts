/**
 * Limit overrides in CDK: context `rateLimits` reaches every HTTP function as RATE_LIMITS and
 * `generationCap` the routes that queue AI work (generations, regenerations, manual quality checks) as GENERATION_CAP; nothing else gets them,
 * and a malformed value fails the synth instead of the first request. The stages' contexts are
 * test/support/synth.ts's STAGES.
 */
import { functions, queuesAiWork } from '#manifest';
import { functionEnvironments, STAGES, synthesized } from '../support/synth';

test('rateLimits goes to HTTP functions, generationCap to the routes that queue AI work', () => {
  const { rateLimits, generationCap } = STAGES.limitOverrides;
  const env = functionEnvironments('limitOverrides');
  for (const fn of functions) {
    const vars = env.get(fn.id)!;
    expect(vars.RATE_LIMITS).toBe(fn.triggers.some((t) => t.kind === 'http') ? rateLimits : undefined);
    expect(vars.GENERATION_CAP).toBe(queuesAiWork(fn) ? generationCap : undefined);
  }
  for (const id of ['analysis-create', 'analysis-feedback-create', 'analysis-quality-check'])
    expect(env.get(id)!.GENERATION_CAP).toBe(generationCap);
  expect(env.get('generation-worker')!.GENERATION_CAP).toBeUndefined();
});

test('malformed overrides fail the synth', () => {
  expect(() => synthesized('malformedRateLimits')).toThrow(/RATE_LIMITS/);
  expect(() => synthesized('zeroGenerationCap')).toThrow(/generationCap/);
});
