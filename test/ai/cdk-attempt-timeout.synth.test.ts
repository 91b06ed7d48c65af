/**
 * The attempt-timeout override in CDK: context `aiAttemptTimeoutMs` reaches every function that calls
 * Bedrock as AI_ATTEMPT_TIMEOUT_MS (the twin renders the same template); no other function gets it, no
 * function gets it when the stage keeps the code's defaults, and a malformed value fails the synth.
 * The stages' contexts are test/support/synth.ts's STAGES.
 */
import { callsBedrock, functions } from '#manifest';
import { functionEnvironments, STAGES, synthesized } from '../support/synth';

test('aiAttemptTimeoutMs goes to the Bedrock-calling functions only; without it, none has the variable', () => {
  const { aiAttemptTimeoutMs } = STAGES.attemptTimeouts;
  const env = functionEnvironments('attemptTimeouts');
  for (const fn of functions) expect(env.get(fn.id)!.AI_ATTEMPT_TIMEOUT_MS).toBe(callsBedrock(fn) ? aiAttemptTimeoutMs : undefined);
  expect(env.get('generation-worker')!.AI_ATTEMPT_TIMEOUT_MS).toBeDefined();
  expect(env.get('quality-worker')!.AI_ATTEMPT_TIMEOUT_MS).toBeDefined();
  const defaults = functionEnvironments('dev');
  for (const fn of functions) expect(defaults.get(fn.id)!.AI_ATTEMPT_TIMEOUT_MS).toBeUndefined();
});

test('a malformed aiAttemptTimeoutMs fails the synth', () => {
  expect(() => synthesized('attemptTimeoutNotAList')).toThrow(/aiAttemptTimeoutMs/);
  expect(() => synthesized('attemptTimeoutZero')).toThrow(/aiAttemptTimeoutMs/);
});
