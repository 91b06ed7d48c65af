/**
 * Generating one analysis (the generation worker's core): queued → generating → complete, or failed
 * with a message the user can act on. Duplicate delivery of the same message finds the row already
 * claimed and generates nothing, so it produces one analysis; it only queues the quality checks again
 * when the analysis is complete and was never checked (the first run's queueing failed). The investigation and its evidence are only
 * read here, never changed.
 */
import type { Kysely } from 'kysely';
import type { AiGateway } from '../ai/gateway';
import { AiRequestError, AiUnavailableError } from '../ai/errors';
import type { Database } from '../db/schema';
import { retrievalQuality } from '../domain/similarity';
import { logger } from '../logger';
import { readAnswer, UnreadableAnswerError } from './answer';
import { activeTemplate, analysisPromptValues, PROMPT_TYPE, PromptUnavailableError, renderTemplate } from './prompts';
import { decideInclusion, nearestChunks } from './retrieval';

export type GenerationOutcome = 'complete' | 'failed' | 'duplicate';

/** Failures that retrying the same message would not fix: the analysis ends failed with this message. */
const FINAL_FAILURES = [AiUnavailableError, AiRequestError, PromptUnavailableError, UnreadableAnswerError];

export class NoEvidenceError extends Error {
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
}

export const generateAnalysis = async ({ db, gateway, onComplete }: GenerationDeps, analysisId: string): Promise<GenerationOutcome> => {
  const claimed = await db.updateTable('analyses').set({ generation_status: 'generating', updated_at: new Date() })
    .where('id', '=', analysisId).where('generation_status', '=', 'queued')
    .returning(['id', 'investigation_id', 'analysis_type', 'question_id', 'topic_id', 'requested_by', 'regeneration_reason', 'regeneration_direction'])
    .executeTakeFirst();
  if (!claimed) {
    // A redelivered message whose first run completed the analysis but could not queue its checks
    // (onComplete threw, so the message came back): queue them now, so no analysis stays unchecked.
    const settled = await db.selectFrom('analyses').select('id').where('id', '=', analysisId).where('generation_status', '=', 'complete')
      .where('quality_checked_at', 'is', null).where('quality_error', 'is', null).executeTakeFirst();
    if (settled) await onComplete?.(analysisId);
    return 'duplicate';
  }

  try {
    const investigation = await db.selectFrom('investigations').select(['title', 'description']).where('id', '=', claimed.investigation_id).executeTakeFirstOrThrow();
    const [question, topic] = await Promise.all([
      claimed.question_id ? db.selectFrom('questions').select('text').where('id', '=', claimed.question_id).executeTakeFirst() : undefined,
      claimed.topic_id ? db.selectFrom('topics').select(['title', 'description']).where('id', '=', claimed.topic_id).executeTakeFirst() : undefined,
    ]);
    const template = await activeTemplate(db, PROMPT_TYPE[claimed.analysis_type]);
    const context = { analysisId, userId: claimed.requested_by ?? undefined };

    const query = question?.text ?? (topic ? `${topic.title}. ${topic.description}` : `${investigation.title}. ${investigation.description}`);
    const queryEmbedding = await gateway.embed(query, context);
    const ranked = decideInclusion(await nearestChunks(db, claimed.investigation_id, queryEmbedding.embedding));
    const included = ranked.filter((r) => r.included);
    if (ranked.length === 0) throw new NoEvidenceError();

    const values = analysisPromptValues({
      investigationTitle: investigation.title,
      question: question?.text,
      topic,
      evidence: included.map((c) => ({ id: c.chunk_id, text: c.text })),
      regeneration: claimed.regeneration_reason ? { reason: claimed.regeneration_reason, direction: claimed.regeneration_direction } : null,
    });
    const answer = await gateway.converse({
      purpose: 'analysis', system: renderTemplate(template.system_prompt, values), prompt: renderTemplate(template.user_prompt_template, values), ...context,
    });
    const { answer: result, validation_status } = readAnswer(answer.text, new Set(included.map((c) => c.chunk_id)));

    const considered = new Set(included.map((c) => c.evidence_item_id ?? c.background_document_id)).size;
    const { n: total } = await db.selectFrom('evidence_items').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('investigation_id', '=', claimed.investigation_id).executeTakeFirstOrThrow();

    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('retrieval_records').where('analysis_id', '=', analysisId).execute();
      await trx.insertInto('retrieval_records').values(ranked.map((r) => ({
        analysis_id: analysisId, rank: r.rank, chunk_id: r.chunk_id, source_type: r.source_type, evidence_item_id: r.evidence_item_id,
        background_document_id: r.background_document_id, similarity: r.similarity, included: r.included, exclusion_reason: r.exclusion_reason,
      }))).execute();
      await trx.updateTable('analyses').set({
        generation_status: 'complete',
        result: JSON.stringify(result),
        validation_status,
        prompt_type: template.prompt_type,
        prompt_version: template.version,
        model_id: answer.modelId,
        token_usage: JSON.stringify({
          input_tokens: answer.usage.inputTokens + queryEmbedding.usage.inputTokens,
          output_tokens: answer.usage.outputTokens,
        }),
        evidence_coverage: JSON.stringify({ considered, total: Number(total) }),
        retrieval_quality: JSON.stringify(retrievalQuality(ranked.map((r) => r.similarity), ranked.map((r) => r.included))),
        error_message: null,
        generated_at: new Date(),
        updated_at: new Date(),
      }).where('id', '=', analysisId).where('generation_status', '=', 'generating').execute();
    });
    await onComplete?.(analysisId);
    return 'complete';
  } catch (error) {
    if ([...FINAL_FAILURES, NoEvidenceError].some((type) => error instanceof type)) {
      logger.warn('analysis generation failed', { analysisId, error: (error as Error).message });
      await db.updateTable('analyses').set({ generation_status: 'failed', error_message: (error as Error).message, updated_at: new Date() })
        .where('id', '=', analysisId).where('generation_status', '=', 'generating').execute();
      return 'failed';
    }
    // anything else (a database blip, a crash) is retried: hand the analysis back and let the message return
    await db.updateTable('analyses').set({ generation_status: 'queued', updated_at: new Date() })
      .where('id', '=', analysisId).where('generation_status', '=', 'generating').execute()
      .catch(() => undefined);
    throw error;
  }
};
