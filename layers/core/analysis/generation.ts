/**
 * Generating one analysis (the generation worker's core): queued → generating → complete, or failed
 * with a message the user can act on. A duplicate delivery or a crashed worker still produces one
 * analysis (redelivery: domain/generation-status.ts). While the investigation's evidence is still being
 * processed, the analysis waits for it, back in queued, for a bounded time (evidence-wait.ts). The
 * investigation and its evidence are only read here, never changed.
 */
import type { Kysely } from 'kysely';
import type { AiGateway } from '#core/ai/gateway';
import { AiRequestError, AiUnavailableError, EmbeddingModelError } from '#core/ai/errors';
import { QuotaExhaustedError } from '#core/ai/quota';
import { config, ENV } from '#core/config';
import type { Database, EvidenceWait } from '#core/db/schema';
import { jsonColumn } from '#core/db/values';
import { evidenceCoverage } from '#core/domain/evidence-coverage';
import { groupMembers } from '#core/embeddings/chunk-store';
import { guardedMove } from '#core/domain/generation-status';
import { retrievalQuality } from '#core/domain/similarity';
import { investigationItemCounts } from '#core/ingestion/readiness';
import { logger } from '#core/logger';
import { readAnswer, UnreadableAnswerError } from './answer';
import type { NonceSource } from './evidence-markers';
import { activeTemplate, analysisPromptValues, PROMPT_TYPE, PromptUnavailableError, renderTemplate } from './prompts';
import { evidenceWait, evidenceWaitMs, WaitingForEvidenceError } from './evidence-wait';
import { claimLease, holdLease } from './lease';
import { decideInclusion, inclusionRuleRecord, inclusionRules, nearestChunks } from './retrieval';

export type GenerationOutcome = 'complete' | 'failed' | 'duplicate';

/** Failures that retrying the same message would not fix: the analysis ends failed with this message. */
const FINAL_FAILURES = [AiUnavailableError, AiRequestError, EmbeddingModelError, PromptUnavailableError, UnreadableAnswerError];

class NoEvidenceError extends Error {
  override name = 'NoEvidenceError';
  constructor() {
    super('No evidence of this investigation is ready for analysis yet (nothing is embedded). Try again once evidence has been processed.');
  }
}

export interface GenerationDeps {
  db: Kysely<Database>;
  gateway: AiGateway;
  /** called once the analysis is complete (queues its quality checks) */
  onComplete?: (analysisId: string) => Promise<void>;
  /** called with every lease renewal: keeps the message invisible while the work holds the analysis (worker.ts) */
  keepMessage?: () => Promise<void>;
  /** the labels of the evidence markers (evidence-markers.ts): random unless a test needs a stable prompt */
  markerNonce?: NonceSource;
}

/**
 * Put-back tries at 0, 1, 3 and 7 s: they outlast a database blip of several seconds (a failover, a cut
 * connection), so the analysis is queued again at once instead of waiting out its 60 s lease.
 */
const PUT_BACK_ATTEMPTS = 4;

/**
 * Hands a generation that failed for a retryable reason back to queued, releasing its lease (and, when it
 * waits for AI capacity, saying until when); a failed put-back is tried again. Should every attempt fail
 * (the database is down), nothing is lost: the lease runs out and the message's return takes the row over.
 */
/** The changes of status a generation makes (each checked against the machine when this module loads). */
export const GENERATION_MOVES = {
  claim: guardedMove('start_generation'),
  putBack: guardedMove('generation_deferred'),
  complete: guardedMove('generation_succeeded'),
  fail: guardedMove('generation_failed', ['generating']),
} as const;

const putBack = async (
  db: Kysely<Database>,
  analysisId: string,
  waits: { aiWaitUntil?: Date | null; waitingForEvidence?: EvidenceWait } = {},
): Promise<void> => {
  for (let attempt = 1; attempt <= PUT_BACK_ATTEMPTS; attempt++) {
    try {
      const { from, to } = GENERATION_MOVES.putBack;
      await db
        .updateTable('analyses')
        .set({
          generation_status: to,
          claimed_until: null,
          ai_wait_until: waits.aiWaitUntil ?? null,
          ...(waits.waitingForEvidence && { waiting_for_evidence: JSON.stringify(waits.waitingForEvidence) }),
          updated_at: new Date(),
        })
        .where('id', '=', analysisId)
        .where('generation_status', 'in', from)
        .execute();
      return;
    } catch (error) {
      logger.warn('putting the analysis back to queued failed', { analysisId, attempt, error: error as Error });
      if (attempt < PUT_BACK_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
    }
  }
};

/**
 * Throws WaitingForEvidenceError while the investigation's evidence is still being processed and the analysis may
 * still wait (evidence-wait.ts); once it goes ahead, a wait it showed is cleared.
 */
const waitForEvidence = async (
  db: Kysely<Database>,
  analysis: { id: string; investigation_id: string; created_at: Date; waiting_for_evidence: EvidenceWait | null },
  investigation: { evidence_count: number; background_document_count: number },
): Promise<void> => {
  const counts = await investigationItemCounts(db, analysis.investigation_id, {
    evidenceItems: investigation.evidence_count,
    backgroundDocuments: investigation.background_document_count,
  });
  const now = new Date();
  const waiting = jsonColumn<EvidenceWait>(analysis.waiting_for_evidence);
  const wait = evidenceWait({
    counts,
    requestedAt: new Date(analysis.created_at),
    waitingSince: waiting?.since,
    now,
    maxWaitMs: evidenceWaitMs(config()[ENV.aiAttemptTimeoutMs]),
  });
  if (wait) throw new WaitingForEvidenceError(wait, now);
  if (waiting) {
    logger.info('the analysis waited for its evidence; generating with what is ready', { ...counts, since: waiting.since });
    await db.updateTable('analyses').set({ waiting_for_evidence: null }).where('id', '=', analysis.id).execute();
  }
};

export const generateAnalysis = async (
  { db, gateway, onComplete, keepMessage, markerNonce }: GenerationDeps,
  analysisId: string,
): Promise<GenerationOutcome> => {
  // from queued, or a generating row whose worker's lease ran out (it crashed); a live lease throws LeaseHeldError
  const claimed = await claimLease(db, analysisId, GENERATION_MOVES.claim, [
    'id',
    'investigation_id',
    'analysis_type',
    'question_id',
    'topic_id',
    'requested_by',
    'regeneration_reason',
    'regeneration_direction',
    'created_at',
    'waiting_for_evidence',
  ]);
  if (!claimed) {
    // A redelivered message whose first run completed the analysis but could not queue its checks
    // (onComplete threw, so the message came back): queue them now, so no analysis stays unchecked.
    const settled = await db
      .selectFrom('analyses')
      .select('id')
      .where('id', '=', analysisId)
      .where('generation_status', '=', 'complete')
      .where('quality_checked_at', 'is', null)
      .where('quality_error', 'is', null)
      .executeTakeFirst();
    if (settled) await onComplete?.(analysisId);
    return 'duplicate';
  }
  const release = holdLease(db, analysisId, GENERATION_MOVES.claim.to, keepMessage);

  try {
    const investigation = await db
      .selectFrom('investigations')
      .select(['title', 'description', 'organization_id', 'evidence_count', 'background_document_count'])
      .where('id', '=', claimed.investigation_id)
      .executeTakeFirstOrThrow();
    await waitForEvidence(db, claimed, investigation);
    const [question, topic] = await Promise.all([
      claimed.question_id ? db.selectFrom('questions').select('text').where('id', '=', claimed.question_id).executeTakeFirst() : undefined,
      claimed.topic_id
        ? db.selectFrom('topics').select(['title', 'description']).where('id', '=', claimed.topic_id).executeTakeFirst()
        : undefined,
    ]);
    const template = await activeTemplate(db, PROMPT_TYPE[claimed.analysis_type]);
    const context = { analysisId, userId: claimed.requested_by ?? undefined, organizationId: investigation.organization_id };

    const query =
      question?.text ?? (topic ? `${topic.title}. ${topic.description}` : `${investigation.title}. ${investigation.description}`);
    const queryEmbedding = await gateway.embedTexts([query], { inputType: 'search_query', ...context });
    const candidates = await nearestChunks(db, claimed.investigation_id, queryEmbedding.embeddings[0]!, { model: queryEmbedding.model });
    const rules = inclusionRules();
    const { ranked, lowRelevance } = decideInclusion(candidates, rules);
    const included = ranked.filter((r) => r.included);
    if (ranked.length === 0) throw new NoEvidenceError();

    const { values, markers } = analysisPromptValues(
      {
        investigationTitle: investigation.title,
        question: question?.text,
        topic,
        evidence: included.map((c) => ({ id: c.chunk_id, text: c.text })),
        lowRelevance,
        regeneration: claimed.regeneration_reason
          ? { reason: claimed.regeneration_reason, direction: claimed.regeneration_direction }
          : null,
      },
      markerNonce,
    );
    const answer = await gateway.converse({
      purpose: 'analysis',
      system: renderTemplate(template.system_prompt, values),
      prompt: renderTemplate(template.user_prompt_template, values),
      ...context,
      // the query's embedding is spent: given back for a full quota, the retry would pay for it again
      followUp: true,
    });
    const { answer: result, validation_status } = readAnswer(answer.text, markers);

    const { n: total } = await db
      .selectFrom('evidence_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('investigation_id', '=', claimed.investigation_id)
      .executeTakeFirstOrThrow();

    const members = await groupMembers(
      db,
      ranked.map((r) => r.chunk_id),
    );
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('retrieval_records').where('analysis_id', '=', analysisId).execute();
      await trx
        .insertInto('retrieval_records')
        .values(
          ranked.map((r) => ({
            analysis_id: analysisId,
            rank: r.rank,
            chunk_id: r.chunk_id,
            source_type: r.source_type,
            evidence_item_id: r.evidence_item_id,
            background_document_id: r.background_document_id,
            similarity: r.similarity,
            included: r.included,
            exclusion_reason: r.exclusion_reason,
          })),
        )
        .execute();
      await trx
        .updateTable('analyses')
        .set({
          generation_status: GENERATION_MOVES.complete.to,
          result: JSON.stringify(result),
          validation_status,
          prompt_type: template.prompt_type,
          prompt_version: template.version,
          model_id: answer.modelId,
          token_usage: JSON.stringify({
            input_tokens: answer.usage.inputTokens + queryEmbedding.usage.inputTokens,
            output_tokens: answer.usage.outputTokens,
          }),
          // a retrieved passage stands for every item holding it (its near-duplicate group), each one considered
          evidence_coverage: JSON.stringify(evidenceCoverage([...ranked, ...members], Number(total))),
          retrieval_quality: JSON.stringify({
            ...retrievalQuality(
              ranked.map((r) => r.similarity),
              ranked.map((r) => r.included),
            ),
            rule: inclusionRuleRecord(rules),
          }),
          low_relevance: lowRelevance,
          waiting_for_evidence: null,
          error_message: null,
          generated_at: new Date(),
          claimed_until: null,
          updated_at: new Date(),
        })
        .where('id', '=', analysisId)
        .where('generation_status', 'in', GENERATION_MOVES.complete.from)
        .execute();
    });
    await onComplete?.(analysisId);
    return 'complete';
  } catch (error) {
    if ([...FINAL_FAILURES, NoEvidenceError].some((type) => error instanceof type)) {
      logger.warn('analysis generation failed', { analysisId, error: (error as Error).message });
      const { from, to } = GENERATION_MOVES.fail;
      await db
        .updateTable('analyses')
        .set({
          generation_status: to,
          error_message: (error as Error).message,
          claimed_until: null,
          waiting_for_evidence: null,
          updated_at: new Date(),
        })
        .where('id', '=', analysisId)
        .where('generation_status', 'in', from)
        .execute();
      return 'failed';
    }
    // anything else (a database blip, a crash, the organization's AI share in use, evidence still being processed)
    // is retried: hand the analysis back and let the message return (a full quota at its retryAt, evidence a few
    // seconds later: worker.ts)
    await putBack(db, analysisId, {
      aiWaitUntil: error instanceof QuotaExhaustedError ? error.retryAt : null,
      ...(error instanceof WaitingForEvidenceError && { waitingForEvidence: error.wait }),
    });
    throw error;
  } finally {
    release();
  }
};
