/**
 * The retrieval similarity floor as a stage setting (issue 15, item 3): context `retrievalMinSimilarity`
 * reaches the generation worker, the one function that retrieves evidence for an analysis, as
 * RETRIEVAL_MIN_SIMILARITY (the twin renders the same template); no function gets it when the stage keeps
 * the code's 0.20, and a value outside 0–1 fails the synth. The stages' contexts are test/support/synth.ts's STAGES.
 */
import { functions } from '#manifest';
import { functionEnvironments, synthesized } from '../support/synth';

test('retrievalMinSimilarity goes to the generation worker only; without it, no function has the variable', () => {
  const env = functionEnvironments('retrievalFloor');
  for (const fn of functions)
    expect([fn.id, env.get(fn.id)!.RETRIEVAL_MIN_SIMILARITY]).toEqual([fn.id, fn.id === 'generation-worker' ? '0.15' : undefined]);
  const defaults = functionEnvironments('dev');
  for (const fn of functions) expect(defaults.get(fn.id)!.RETRIEVAL_MIN_SIMILARITY).toBeUndefined();
});

test('a floor outside 0–1 fails the synth', () => {
  expect(() => synthesized('retrievalFloorOutOfRange')).toThrow(
    /retrievalMinSimilarity: the retrieval similarity floor must be a number from 0 to 1, got '1.5'/,
  );
});
