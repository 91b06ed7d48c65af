/**
 * An analysis as a record (GET /api/analysis/{analysis_id}/export, DESIGN.md "An analysis is a record"): everything a
 * reader needs to see what was asked, what the AI answered from which passages, how it was checked and judged —
 * read from the same views the API serves, so the record never says something the service does not:
 * - the investigation, the analysis view with its claims, aspects and the investigator's edit (./read.ts);
 * - each finding with its cited passages quoted whole and their sources (title, PDF page);
 * - the retrieval set as the retrieval panel explains it (./retrieval-view.ts), each passage whole;
 * - the models and regions that answered (the AI ledger: one row per attempt; only answered attempts count);
 * - every timestamp: requested, generated, checked, each investigator's engagement gates, exported;
 * - the judgments and edits in order (the feedback history).
 * The PDF (./export-pdf.ts) is rendered from this record.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { feedbackHistory } from '#core/feedback/history';
import type { ExportFormat } from './contract';
import { getAnalysis } from './read';
import { getRetrieval } from './retrieval-view';

/** The record's layout version: a reader of an archived export knows which fields to expect. */
const EXPORT_FORMAT_VERSION = 1 as const;

/** What the export's files are called: the analysis id, so two exports of one analysis name the same record. */
export const exportFileName = (analysisId: string, format: ExportFormat): string => `analysis-${analysisId}.${format}`;

/** The analysis of the organization as a record, or undefined when it is missing or another organization's. */
export const analysisRecord = async (
  db: Kysely<Database>,
  organizationId: string,
  analysisId: string,
  userId: string | undefined,
  now: Date = new Date(),
) => {
  const analysis = await getAnalysis(db, organizationId, analysisId, userId);
  if (!analysis) return undefined;
  const [investigation, retrieval, checked, models, engagements, feedback] = await Promise.all([
    db.selectFrom('investigations').select(['id', 'title']).where('id', '=', analysis.investigation_id).executeTakeFirstOrThrow(),
    getRetrieval(db, organizationId, analysisId, Number.POSITIVE_INFINITY),
    db.selectFrom('analyses').select('quality_checked_at').where('id', '=', analysisId).executeTakeFirstOrThrow(),
    db
      .selectFrom('ai_calls')
      .select(['purpose', 'model_id', 'region'])
      .select((eb) => [eb.fn.countAll<number>().as('calls'), eb.fn.min('created_at').as('first_at'), eb.fn.max('created_at').as('last_at')])
      .where('analysis_id', '=', analysisId)
      .where('outcome', '=', 'ok')
      .groupBy(['purpose', 'model_id', 'region'])
      .orderBy('first_at')
      .execute(),
    db
      .selectFrom('analysis_engagements as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.user_id', 'u.display_name', 'e.detail_reviewed_at', 'e.citation_checked_at'])
      .where('e.analysis_id', '=', analysisId)
      .orderBy('e.detail_reviewed_at')
      .execute(),
    feedbackHistory(db, analysisId),
  ]);
  // the analysis is the organization's (read above), so its retrieval view exists, with no chunks before generation
  const { chunks, summary } = retrieval!;
  const byChunk = new Map(chunks.flatMap((c) => (c.chunk_id ? [[c.chunk_id, c] as const] : [])));
  return {
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    investigation: { investigation_id: investigation.id, title: investigation.title },
    analysis,
    findings: (analysis.result?.findings ?? []).map((finding, index) => ({
      index,
      statement: finding.statement,
      citations: finding.citations.map((chunkId) => {
        const chunk = byChunk.get(chunkId);
        return {
          chunk_id: chunkId,
          source_title: chunk?.source_title ?? null,
          page: chunk?.page ?? null,
          quote: chunk?.text ?? null,
        };
      }),
      claims: (analysis.claims ?? []).filter((claim) => claim.part === 'finding' && claim.finding_index === index),
    })),
    retrieval: { low_relevance: analysis.low_relevance, summary, chunks },
    models: models.map((m) => ({
      purpose: m.purpose,
      model_id: m.model_id,
      region: m.region,
      calls: Number(m.calls),
      first_at: isoTime(m.first_at)!,
      last_at: isoTime(m.last_at)!,
    })),
    timestamps: {
      requested_at: analysis.created_at,
      generated_at: analysis.generated_at,
      quality_checked_at: isoTime(checked.quality_checked_at),
      engagements: engagements.map((e) => ({
        user_id: e.user_id,
        display_name: e.display_name,
        detail_reviewed_at: isoTime(e.detail_reviewed_at),
        citation_checked_at: isoTime(e.citation_checked_at),
      })),
    },
    feedback,
  };
};

export type AnalysisRecord = NonNullable<Awaited<ReturnType<typeof analysisRecord>>>;
