/**
 * Starting an analysis: the request is checked (type, selection, organization, evidence, an active
 * prompt template, the organization's cap on concurrent generations) before anything is written; then
 * one `queued` row and one generation message.
 * If the message cannot be sent, the row is marked failed with a retry-later message — never left queued.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { guardedMove, INITIAL_STATUS } from '#core/domain/generation-status';
import { conflict, unavailable } from '#core/errors';
import type { OrgCaller } from '#core/auth/caller';
import { logger } from '#core/logger';
import { assertGenerationCapacity } from '#core/ratelimit/generation-cap';
import { ensureUser } from '#core/repositories/users';
import type { AnalysisMessage } from '#core/queues';
import { assessSelection } from './assess';
import type { AnalysisRequest } from './selection';
import { ifUsed } from '#core/if-used';

export interface CreateDeps {
  db: Kysely<Database>;
  send: (message: AnalysisMessage) => Promise<void>;
}

/**
 * The checks before any analysis row is written, for a new analysis and a regeneration alike: the
 * selection is the organization's, then the assessment's refusal (no evidence, or the prompt type
 * deactivated) — the one POST /api/analysis/assess reports, so the two always agree.
 * Returns the investigation.
 */
export const assertCanGenerate = async (db: Kysely<Database>, organizationId: string, request: AnalysisRequest) => {
  const {
    selection: { investigation },
    assessment,
  } = await assessSelection(db, organizationId, request);
  if (assessment.refusal) throw conflict(assessment.refusal.message, { reason: assessment.refusal.reason });
  return investigation;
};

/** The change of status create makes: a row whose message could not be sent fails instead of waiting in queued. */
export const NOT_QUEUED = /* @__PURE__ */ ifUsed(() => guardedMove('generation_failed', [INITIAL_STATUS]));

export const createAnalysis = async (
  { db, send }: CreateDeps,
  caller: OrgCaller,
  request: AnalysisRequest,
): Promise<{ analysis_id: string; generation_status: typeof INITIAL_STATUS }> => {
  const investigation = await assertCanGenerate(db, caller.organizationId, request);
  // the cap check and the insert share a transaction, so the organization's cap is exact; a first-time
  // investigator is provisioned in it too, so a refused request leaves no trace
  const row = await db.transaction().execute(async (trx) => {
    await assertGenerationCapacity(trx, caller.organizationId);
    const requestedBy = await ensureUser(trx, caller);
    return trx
      .insertInto('analyses')
      .values({
        investigation_id: investigation.id,
        generation_status: INITIAL_STATUS,
        analysis_type: request.analysis_type,
        question_id: request.question_id ?? null,
        topic_id: request.topic_id ?? null,
        requested_by: requestedBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  try {
    await send({ analysis_id: row.id });
  } catch (error) {
    logger.error('could not queue an analysis', { analysisId: row.id, error: error as Error });
    await db
      .updateTable('analyses')
      .set({ generation_status: NOT_QUEUED.to, error_message: 'The analysis could not be queued. Please try again in a moment.' })
      .where('id', '=', row.id)
      .where('generation_status', 'in', NOT_QUEUED.from)
      .execute();
    throw unavailable('The analysis could not be queued. Please try again in a moment.', { analysis_id: row.id });
  }
  return { analysis_id: row.id, generation_status: INITIAL_STATUS };
};
