/**
 * Recording a feedback action (SPEC "Feedback", "Judgment"): agree, disagree, unsure — only once the
 * investigator has passed both engagement gates, enforced here —, regenerate (a new analysis linked to
 * this one, its prompt carrying the reason and direction), edit (a new revision; the AI's text is
 * kept) and view.
 *
 * Each action is one transaction: the analysis row is locked, the action checked, the feedback row
 * written with what it produced, and the analysis's feedback status moved on. A retried request
 * (same request id from the same investigator) records nothing new and answers with what the first
 * one recorded; two copies arriving together serialize on the analysis lock, and the second finds the
 * first's row. A regeneration is queued after commit; if it cannot be queued, everything the action
 * wrote is undone and the caller is told to try again — nothing half-done is left behind.
 */
import type { Kysely } from 'kysely';
import type { Database, FeedbackStatus } from '#core/db/schema';
import { feedbackBadge } from '#core/domain/badges';
import { INITIAL_STATUS, isGenerated } from '#core/domain/generation-status';
import {
  isJudgment,
  missingGates,
  nextFeedbackStatus,
  regenerationDraft,
  STATUS_OF_ACTION,
  UNSURE_PROMPT,
  type FeedbackAction,
  type RegenerationReason,
} from '#core/domain/feedback';
import type * as z from 'zod';
import type { feedbackBodySchema } from './contract';
import { conflict, invalid, notFound, unavailable } from '#core/errors';
import { logger } from '#core/logger';
import { assertGenerationCapacity } from '#core/ratelimit/generation-cap';
import type { AnalysisMessage } from '#core/queues';
import { assertCanGenerate } from '#core/analysis/create';
import type { AnalysisRequest } from '#core/analysis/selection';
import { analysisOfOrganization, type Actor } from './engagement';
import { feedbackRecord } from './history';

export type FeedbackInput =
  | { action: 'agree' | 'view' }
  | { action: 'disagree'; reason: string }
  | { action: 'unsure'; direction?: string | undefined }
  | { action: 'regenerate'; reason: RegenerationReason; direction?: string | undefined }
  | { action: 'edit'; content: string };

/** A feedback body's action, and its retry id: the body's `request_id` or the Idempotency-Key header, which must agree. */
export const feedbackRequest = (
  body: z.output<typeof feedbackBodySchema>,
  headerRequestId: string | undefined,
): { input: FeedbackInput; requestId: string | undefined } => {
  const { request_id: bodyRequestId, ...input } = body;
  if (bodyRequestId && headerRequestId && bodyRequestId !== headerRequestId) {
    throw invalid('request_id and the Idempotency-Key header differ; send one of them.');
  }
  return { input, requestId: bodyRequestId ?? headerRequestId };
};

export interface FeedbackDeps {
  db: Kysely<Database>;
  /** queues a regenerated analysis for generation */
  send: (message: AnalysisMessage) => Promise<void>;
}

/** A second request with a request id already used: answered from the first one's row. */
class Replayed extends Error {}

const GATES_MESSAGE = 'Judgment opens after you review the analysis detail (Gate A) and open at least one citation (Gate B).';

export const recordFeedback = async (deps: FeedbackDeps, actor: Actor, analysisId: string, input: FeedbackInput, requestId?: string) => {
  const { db } = deps;
  if (requestId) {
    const earlier = await replayOf(db, actor, analysisId, input.action, requestId);
    if (earlier) return earlier;
  }
  let outcome;
  try {
    outcome = await db.transaction().execute(async (trx) => {
      const analysis = await analysisOfOrganization(trx, actor.organizationId, analysisId).forUpdate('a').executeTakeFirst();
      if (!analysis) throw notFound('The analysis');
      if (!isGenerated(analysis.generation_status)) {
        throw conflict('The analysis has no output to give feedback on yet.', { generation_status: analysis.generation_status });
      }
      if (isJudgment(input.action)) {
        const gates = await trx
          .selectFrom('analysis_engagements')
          .select(['detail_reviewed_at', 'citation_checked_at'])
          .where('analysis_id', '=', analysisId)
          .where('user_id', '=', actor.userId)
          .executeTakeFirst();
        const missing = missingGates(gates ?? { detail_reviewed_at: null, citation_checked_at: null });
        if (missing.length > 0) throw conflict(GATES_MESSAGE, { missing });
      }

      let regeneratedAnalysisId: string | null = null;
      let revisionId: string | null = null;
      if (input.action === 'regenerate') regeneratedAnalysisId = await insertRegeneration(trx, actor, analysis, input);
      if (input.action === 'edit') {
        revisionId = (
          await trx
            .insertInto('analysis_revisions')
            .values({ analysis_id: analysisId, author_id: actor.userId, content: JSON.stringify({ text: input.content }) })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      }
      const inserted = await trx
        .insertInto('feedback')
        .values({
          analysis_id: analysisId,
          user_id: actor.userId,
          action: input.action,
          status: STATUS_OF_ACTION[input.action],
          reason: 'reason' in input ? input.reason : null,
          direction: 'direction' in input ? (input.direction ?? null) : null,
          request_id: requestId ?? null,
          regenerated_analysis_id: regeneratedAnalysisId,
          revision_id: revisionId,
        })
        .onConflict((oc) => oc.columns(['user_id', 'request_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) throw new Replayed();
      await trx
        .updateTable('analyses')
        .set({ feedback_status: nextFeedbackStatus(analysis.feedback_status, input.action) })
        .where('id', '=', analysisId)
        .execute();
      return { feedbackId: inserted.id, previousStatus: analysis.feedback_status, regeneratedAnalysisId };
    });
  } catch (error) {
    if (error instanceof Replayed) return (await replayOf(db, actor, analysisId, input.action, requestId!))!;
    throw error;
  }

  if (outcome.regeneratedAnalysisId) await queueRegeneration(deps, analysisId, outcome);
  return { ...(await answer(db, actor, analysisId, outcome.feedbackId, input)), replayed: false };
};

type LockedAnalysis = NonNullable<Awaited<ReturnType<ReturnType<typeof analysisOfOrganization>['executeTakeFirst']>>>;

/** The new analysis of a regeneration: same type and selection, linked to the one it replaces. */
const insertRegeneration = async (
  trx: Kysely<Database>,
  actor: Actor,
  analysis: LockedAnalysis,
  input: { reason: RegenerationReason; direction?: string | undefined },
) => {
  if ((analysis.analysis_type === 'question' && !analysis.question_id) || (analysis.analysis_type === 'topic' && !analysis.topic_id)) {
    throw conflict(`The ${analysis.analysis_type} this analysis answered no longer exists, so it cannot be regenerated.`);
  }
  // the stored selection was valid for its type when the analysis was created (and checked just above)
  await assertCanGenerate(trx, actor.organizationId, {
    investigation_id: analysis.investigation_id,
    analysis_type: analysis.analysis_type,
    question_id: analysis.question_id ?? undefined,
    topic_id: analysis.topic_id ?? undefined,
  } as AnalysisRequest);
  await assertGenerationCapacity(trx, actor.organizationId);
  return (
    await trx
      .insertInto('analyses')
      .values({
        investigation_id: analysis.investigation_id,
        generation_status: INITIAL_STATUS,
        analysis_type: analysis.analysis_type,
        question_id: analysis.question_id,
        topic_id: analysis.topic_id,
        requested_by: actor.userId,
        regenerated_from: analysis.id,
        regeneration_reason: input.reason,
        regeneration_direction: input.direction ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
};

/** Queues the regenerated analysis; if that fails, undoes the action (feedback row, new analysis, status) and says so. */
const queueRegeneration = async (
  { db, send }: FeedbackDeps,
  analysisId: string,
  outcome: { feedbackId: string; previousStatus: FeedbackStatus | null; regeneratedAnalysisId: string | null },
) => {
  const regeneratedId = outcome.regeneratedAnalysisId!;
  try {
    await send({ analysis_id: regeneratedId });
  } catch (error) {
    logger.error('could not queue a regenerated analysis; undoing the regeneration', { analysisId, regeneratedId, error: error as Error });
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('feedback').where('id', '=', outcome.feedbackId).execute();
      await trx.deleteFrom('analyses').where('id', '=', regeneratedId).where('generation_status', '=', INITIAL_STATUS).execute();
      // only if no other action moved the status on meanwhile
      await trx
        .updateTable('analyses')
        .set({ feedback_status: outcome.previousStatus })
        .where('id', '=', analysisId)
        .where('feedback_status', '=', 'regenerated')
        .execute();
    });
    throw unavailable('The new version could not be queued, so nothing was recorded. Please try again in a moment.');
  }
};

/** The first request's answer for a request id this investigator already used; 409 if it was for something else. */
const replayOf = async (db: Kysely<Database>, actor: Actor, analysisId: string, action: FeedbackAction, requestId: string) => {
  const earlier = await db
    .selectFrom('feedback')
    .select(['id', 'analysis_id', 'action'])
    .where('user_id', '=', actor.userId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  if (!earlier) return undefined;
  if (earlier.analysis_id !== analysisId || earlier.action !== action) {
    throw conflict('This request id was already used for a different feedback action; send a new request id.', { request_id: requestId });
  }
  return { ...(await answer(db, actor, analysisId, earlier.id, { action })), replayed: true };
};

/** The response: the recorded action, the analysis's badge now, and what the action produced. */
const answer = async (
  db: Kysely<Database>,
  actor: Actor,
  analysisId: string,
  feedbackId: string,
  input: { action: FeedbackAction; direction?: string | undefined },
) => {
  const record = await feedbackRecord(db, analysisId, feedbackId);
  const analysis = await analysisOfOrganization(db, actor.organizationId, analysisId).executeTakeFirstOrThrow();
  const regenerated = record.regenerated_analysis_id
    ? await db
        .selectFrom('analyses')
        .select(['id', 'generation_status'])
        .where('id', '=', record.regenerated_analysis_id)
        .executeTakeFirst()
    : undefined;
  return {
    feedback: record,
    analysis: {
      analysis_id: analysisId,
      feedback_status: analysis.feedback_status,
      feedback_badge: feedbackBadge(analysis.feedback_status),
    },
    ...(regenerated && {
      regenerated_analysis: {
        analysis_id: regenerated.id,
        generation_status: regenerated.generation_status,
        poll: `/api/analysis/${regenerated.id}`,
      },
    }),
    ...(input.action === 'unsure' && {
      prompt: UNSURE_PROMPT,
      regeneration_draft: regenerationDraft(analysis, record.direction ?? input.direction),
    }),
  };
};
