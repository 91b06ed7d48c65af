/**
 * The attempt-timeout override in CDK: context `aiAttemptTimeoutMs` reaches every function that calls
 * Bedrock as AI_ATTEMPT_TIMEOUT_MS (the twin renders the same template); no other function gets it, no
 * function gets it when the stage keeps the code's defaults, and a malformed value fails the synth.
 */
import { callsBedrock, functions } from '../../lib/manifest';
import { functionEnvironments as synth } from '../support/synth';

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
