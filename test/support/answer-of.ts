/**
 * What the HTTP edge answers for an error the core threw (layers/core/http/errors.ts): its status, headers and
 * body fields, for tests that call the core directly and assert what the client would see.
 */
import { DomainError } from '#core/errors';
import { errorBody, errorHeaders, httpStatusOf } from '#core/http/errors';

export const answerOf = (error: unknown) => {
  if (!(error instanceof DomainError)) throw error;
  return { status: httpStatusOf(error), headers: errorHeaders(error), ...errorBody(error).error };
};
