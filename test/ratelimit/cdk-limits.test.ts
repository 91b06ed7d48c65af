/**
 * Limit overrides in CDK: context `rateLimits` reaches every HTTP function as RATE_LIMITS and
 * `generationCap` the functions that start generations as GENERATION_CAP; nothing else gets them,
 * and a malformed value fails the synth instead of the first request.
 */
import { functions } from '../../lib/manifest';
import { functionEnvironments as synth } from '../support/synth';

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
