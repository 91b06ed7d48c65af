/**
 * Reading a feedback submission: the action named first, its fields checked, and the retry id taken
 * from the body or the Idempotency-Key header — which must agree when both are sent.
 */
import { parseBodyWith, parseWith } from '#core/contract';
import { feedbackRequest } from '#core/feedback/actions';
import { analysisFeedbackCreateRoute } from '#core/feedback/contract';
import { DomainError } from '#core/errors';

/** A submission as the route reads it: the body and the Idempotency-Key header through the contract, then the retry id. */
const parseFeedbackRequest = (body: unknown, idempotencyKey: string | undefined) =>
  feedbackRequest(
    parseBodyWith(analysisFeedbackCreateRoute, body),
    parseWith(analysisFeedbackCreateRoute.headers, { 'idempotency-key': idempotencyKey })['idempotency-key'],
  );

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

test('the retry id comes from the body or the header, and both may be sent when they agree', () => {
  expect(parseFeedbackRequest({ action: 'agree', request_id: 'r-1' }, undefined)).toEqual({ input: { action: 'agree' }, requestId: 'r-1' });
  expect(parseFeedbackRequest({ action: 'agree' }, 'r-2')).toEqual({ input: { action: 'agree' }, requestId: 'r-2' });
  expect(parseFeedbackRequest({ action: 'agree', request_id: 'r-3' }, 'r-3').requestId).toBe('r-3');
  expect(parseFeedbackRequest({ action: 'edit', content: ' New text ' }, undefined)).toEqual({
    input: { action: 'edit', content: 'New text' },
    requestId: undefined,
  });
});

test('a body id and a header id that differ, a malformed header, an unknown action: 400', () => {
  expect(refusal(() => parseFeedbackRequest({ action: 'agree', request_id: 'r-1' }, 'r-9'))).toMatchObject({
    kind: 'invalid',
    message: 'request_id and the Idempotency-Key header differ; send one of them.',
  });
  expect(refusal(() => parseFeedbackRequest({ action: 'agree' }, 'has spaces'))).toMatchObject({ kind: 'invalid' });
  expect(JSON.stringify(refusal(() => parseFeedbackRequest({ action: 'love' }, undefined)))).toContain('action must be one of agree');
});
