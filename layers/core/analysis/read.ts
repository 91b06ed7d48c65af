/** An analysis as clients read it (DESIGN.md wire names), scoped to the caller's organization. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { feedbackBadge } from '../domain/badges';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (typeof v === 'string' ? JSON.parse(v) : v) as T);

export const getAnalysis = async (db: Kysely<Database>, organizationId: string, analysisId: string, userId: string | undefined) => {
  const row = await db.selectFrom('analyses as a')
    .innerJoin('investigations as i', 'i.id', 'a.investigation_id')
    .leftJoin('analysis_engagements as e', (join) => join.onRef('e.analysis_id', '=', 'a.id').on('e.user_id', '=', userId ?? '00000000-0000-0000-0000-000000000000'))
    .selectAll('a')
    .select(['e.detail_reviewed_at', 'e.citation_checked_at'])
    .where('a.id', '=', analysisId).where('i.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    analysis_id: row.id,
    investigation_id: row.investigation_id,
    analysis_type: row.analysis_type,
    question_id: row.question_id,
    topic_id: row.topic_id,
    regenerated_from: row.regenerated_from,
    generation_status: row.generation_status,
    error_message: row.error_message,
    result: json(row.result),
    faithfulness_score: row.faithfulness_score,
    coverage_score: row.coverage_score,
    quality_confidence: row.quality_confidence,
    evidence_coverage: json<{ considered: number; total: number }>(row.evidence_coverage),
    retrieval_quality: json(row.retrieval_quality),
    validation_status: row.validation_status,
    token_usage: json<{ input_tokens: number; output_tokens: number }>(row.token_usage),
    prompt_type: row.prompt_type,
    prompt_version: row.prompt_version,
    model_id: row.model_id,
    detail_reviewed_at: iso(row.detail_reviewed_at),
    citation_checked_at: iso(row.citation_checked_at),
    feedback_status: row.feedback_status,
    feedback_badge: feedbackBadge(row.feedback_status),
    created_at: iso(row.created_at),
    generated_at: iso(row.generated_at),
  };
};

export type AnalysisView = NonNullable<Awaited<ReturnType<typeof getAnalysis>>>;
