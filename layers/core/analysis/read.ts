/** Analyses as clients read them (DESIGN.md wire names), scoped to the caller's organization. */
import type { AnalysisAnswer } from './answer';
import type { Kysely } from 'kysely';
import type { AspectVerdict, ClaimVerdict, Database, EvidenceWait } from '#core/db/schema';
import { confidenceExplained } from '#core/domain/confidence';
import type { RetrievalQuality } from '#core/domain/similarity';
import { feedbackBadge } from '#core/domain/badges';
import { storedEvidenceCoverage } from '#core/domain/evidence-coverage';
import { judgmentEnabled } from '#core/domain/feedback';
import { isoTime, jsonColumn } from '#core/db/values';
import { afterCreationPlace, epochMicros, pageOf, type CreationPlace } from '#core/pagination';
import { organizationAnalyses } from '#core/repositories/analyses';
import { isOrganizationInvestigation } from '#core/repositories/investigations';

/** No user row (e.g. a token whose subject is not provisioned yet): a UUID no engagement row has. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/** Analyses of the caller's organization with the caller's engagement gates: the rows every view is made from. */
const analysisRows = (db: Kysely<Database>, organizationId: string, userId: string | undefined) =>
  organizationAnalyses(db, organizationId)
    .leftJoin('analysis_engagements as e', (join) => join.onRef('e.analysis_id', '=', 'a.id').on('e.user_id', '=', userId ?? NO_USER))
    .leftJoin('questions as q', 'q.id', 'a.question_id')
    .leftJoin('topics as t', 't.id', 'a.topic_id')
    .selectAll('a')
    .select(['e.detail_reviewed_at', 'e.citation_checked_at', 'q.text as question_text', 't.title as topic_title'])
    .select((eb) => eb.exists(eb.selectFrom('analysis_revisions as r').select('r.id').whereRef('r.analysis_id', '=', 'a.id')).as('edited'));

type AnalysisRow = Awaited<ReturnType<ReturnType<typeof analysisRows>['executeTakeFirstOrThrow']>>;

/** What a queued analysis waiting for its evidence shows (analysis/evidence-wait.ts); null once it is generating or done. */
const waitingForEvidence = (row: Pick<AnalysisRow, 'generation_status' | 'waiting_for_evidence'>) => {
  const wait = row.generation_status === 'queued' ? jsonColumn<EvidenceWait>(row.waiting_for_evidence) : null;
  return wait && { ready: wait.ready, total: wait.total, since: new Date(wait.since).toISOString() };
};

/** What the quality scores describe when the investigator has edited the analysis: the AI's text, not theirs. */
const EDITED_QUALITY_NOTE =
  "The quality scores, claims and confidence describe the AI's text; the investigator's edit has not been checked.";

/** One row (analysis + the caller's engagement) → the wire view of GET /api/analysis/{id} and of each list item. */
const toAnalysisView = (row: AnalysisRow) => ({
  analysis_id: row.id,
  investigation_id: row.investigation_id,
  analysis_type: row.analysis_type,
  question_id: row.question_id,
  question_text: row.question_text,
  topic_id: row.topic_id,
  topic_title: row.topic_title,
  regenerated_from: row.regenerated_from,
  generation_status: row.generation_status,
  error_message: row.error_message,
  ai_wait_until: isoTime(row.ai_wait_until),
  waiting_for_evidence: waitingForEvidence(row),
  result: jsonColumn<AnalysisAnswer>(row.result),
  faithfulness_score: row.faithfulness_score,
  coverage_score: row.coverage_score,
  quality_confidence: row.quality_confidence,
  confidence_reason:
    confidenceExplained({
      faithfulness: row.faithfulness_score,
      coverage: row.coverage_score,
      retrieval: jsonColumn<RetrievalQuality>(row.retrieval_quality),
    })?.reason ?? null,
  quality_applies_to: 'ai_text' as const,
  edited: Boolean(row.edited),
  quality_note: row.edited && row.faithfulness_score !== null ? EDITED_QUALITY_NOTE : null,
  evidence_coverage: storedEvidenceCoverage(
    jsonColumn<{ considered: number; total: number; background_documents_considered?: number }>(row.evidence_coverage),
  ),
  retrieval_quality: jsonColumn<Record<string, unknown>>(row.retrieval_quality),
  low_relevance: row.low_relevance,
  validation_status: row.validation_status,
  token_usage: jsonColumn<{ input_tokens: number; output_tokens: number }>(row.token_usage),
  prompt_type: row.prompt_type,
  prompt_version: row.prompt_version,
  model_id: row.model_id,
  detail_reviewed_at: isoTime(row.detail_reviewed_at),
  citation_checked_at: isoTime(row.citation_checked_at),
  judgment_enabled: judgmentEnabled(row.generation_status, row),
  feedback_status: row.feedback_status,
  feedback_badge: feedbackBadge(row.feedback_status),
  created_at: isoTime(row.created_at)!,
  generated_at: isoTime(row.generated_at),
});

type AnalysisView = ReturnType<typeof toAnalysisView>;

/**
 * One analysis, and the investigator's edit if there is one: the latest revision, beside the AI's
 * `result`, which an edit never replaces.
 */
export const getAnalysis = async (db: Kysely<Database>, organizationId: string, analysisId: string, userId: string | undefined) => {
  const row = await analysisRows(db, organizationId, userId).where('a.id', '=', analysisId).executeTakeFirst();
  if (!row) return undefined;
  const revision = await db
    .selectFrom('analysis_revisions as r')
    .leftJoin('users as u', 'u.id', 'r.author_id')
    .select(['r.id', 'r.content', 'r.author_id', 'u.display_name', 'r.created_at'])
    .where('r.analysis_id', '=', analysisId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    ...toAnalysisView(row),
    claims: jsonColumn<ClaimVerdict[]>(row.quality_claims),
    coverage_aspects: jsonColumn<AspectVerdict[]>(row.coverage_aspects),
    edit: revision
      ? {
          revision_id: revision.id,
          content: jsonColumn<{ text: string }>(revision.content)!.text,
          edited_by: revision.author_id ? { user_id: revision.author_id, display_name: revision.display_name } : null,
          edited_at: isoTime(revision.created_at)!,
        }
      : null,
  };
};

export const ANALYSIS_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

export interface AnalysisList {
  analyses: AnalysisView[];
  /** pass as `cursor` for the next page; null when this page is the last */
  next_cursor: string | null;
}

/**
 * An investigation's analyses, newest first (ties broken by id), each the same view as getAnalysis; a
 * page of `limit` after the place `after` (the decoded cursor of the previous page). Undefined when the
 * investigation is missing or not the organization's.
 */
export const listAnalyses = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  userId: string | undefined,
  { limit, after }: { limit: number; after?: CreationPlace },
): Promise<AnalysisList | undefined> => {
  if (!(await isOrganizationInvestigation(db, organizationId, investigationId))) return undefined;
  let query = analysisRows(db, organizationId, userId)
    .select(epochMicros('a.created_at').as('created_micros'))
    .where('a.investigation_id', '=', investigationId);
  if (after) query = query.where(afterCreationPlace('a.created_at', 'a.id', 'desc', after));
  const rows = await query
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .execute();
  const { items, next_cursor } = pageOf(rows, limit, (row) => [row.created_micros, row.id]);
  return { analyses: items.map(toAnalysisView), next_cursor };
};
