/** The analysis routes' contracts: what each takes and answers (../contract.ts). */
import * as z from 'zod';
import { defineRoute, uuid } from '#core/contract';
import { CONFIDENCE_LEVELS } from '#core/domain/confidence';
import { FEEDBACK_STATUSES } from '#core/domain/feedback';
import { ANALYSIS_TYPES } from '#core/domain/analysis-types';
import { GENERATION_STATUSES } from '#core/domain/generation-status';
import { SIMILARITY_BAND_KEYS } from '#core/domain/similarity';
import { QUALITY_STATES, SOURCE_TYPES, VALIDATION_STATUSES } from '#core/domain/vocabulary';
import { nextCursorSchema, pageQueryShape } from '#core/pagination';
import { analysisAnswerSchema } from './answer';
import { assessmentSchema } from './assess';
import { ANALYSIS_LIST } from './read';
import { analysisRequestSchema, refuseDesignOnly } from './selection';
import { feedbackRecordSchema } from '#core/feedback/contract';
import { AI_PURPOSES } from '#core/domain/vocabulary';
import { ifUsed } from '#core/if-used';

const timestamp = /* @__PURE__ */ ifUsed(() => z.iso.datetime().nullable());

export const analysisViewSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    analysis_id: uuid,
    investigation_id: uuid,
    analysis_type: z.enum(ANALYSIS_TYPES),
    question_id: uuid.nullable(),
    question_text: z.string().nullable().describe('the question a question analysis answers (null for other types)'),
    topic_id: uuid.nullable(),
    topic_title: z.string().nullable().describe('the title of the topic a topic analysis analyses (null for other types)'),
    regenerated_from: uuid.nullable(),
    generation_status: z.enum(GENERATION_STATUSES),
    error_message: z.string().nullable(),
    /** set while the analysis (queued, or checking) waits for its organization's share of the AI quota: when it is tried next */
    ai_wait_until: timestamp,
    waiting_for_evidence: z
      .object({
        ready: z.number().int().min(0).describe("the investigation's evidence items and background documents ready for analysis"),
        total: z.number().int().min(0).describe("the investigation's evidence items and background documents"),
        since: z.iso.datetime().describe('when the analysis began to wait'),
      })
      .nullable()
      .describe(
        "set while the queued analysis waits for its investigation's evidence to be processed (files extracted, text embedded); " +
          'it waits at most about 100 s after it was requested, then is generated with what is ready',
      ),
    result: analysisAnswerSchema.nullable(),
    faithfulness_score: z.number().min(0).max(1).nullable(),
    coverage_score: z.number().min(0).max(1).nullable(),
    quality_confidence: z.enum(CONFIDENCE_LEVELS).nullable(),
    confidence_reason: z
      .string()
      .nullable()
      .describe(
        'how quality_confidence was reached, in words: the two scores and the band they give, and whether weak retrieval ' +
          'similarity took one step off (null before a check)',
      ),
    quality_applies_to: z
      .literal('ai_text')
      .describe("the scores, claims, aspects and confidence always describe the AI's text (result), never the investigator's edit"),
    edited: z
      .boolean()
      .describe("an investigator has edited the analysis (GET /api/analysis/{analysis_id} has the edit beside the AI's text)"),
    quality_note: z
      .string()
      .nullable()
      .describe("set when the analysis was edited and has quality scores: what a page shows so the scores are not read as the edit's"),
    /**
     * evidence items with a chunk among those retrieval considered (included or excluded) / evidence items of
     * the investigation; background documents counted apart (null on analyses generated before they were)
     */
    evidence_coverage: z
      .object({
        considered: z.number().int().min(0),
        total: z.number().int().min(0),
        background_documents_considered: z.number().int().min(0).nullable(),
      })
      .nullable(),
    retrieval_quality: z.record(z.string(), z.unknown()).nullable(),
    low_relevance: z
      .boolean()
      .describe(
        'no retrieved chunk reached the similarity floor, so the analysis rests on the closest few, ' +
          'which may be only weakly related to the question (the prompt told the model so)',
      ),
    validation_status: z.enum(VALIDATION_STATUSES).nullable(),
    token_usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).nullable(),
    prompt_type: z.string().nullable(),
    prompt_version: z.number().int().nullable(),
    model_id: z.string().nullable(),
    detail_reviewed_at: timestamp,
    citation_checked_at: timestamp,
    judgment_enabled: z.boolean(),
    feedback_status: z.enum(FEEDBACK_STATUSES).nullable(),
    feedback_badge: z.object({ key: z.string(), label: z.string(), color: z.string() }).nullable(),
    created_at: z.iso.datetime(),
    generated_at: timestamp,
  }),
);

/** One analysis as GET /api/analysis/{id} answers: the list item and the investigator's edit, kept out of lists because it can be long. */
export const claimVerdictSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    statement: z.string().describe('the claim as the faithfulness check stated it'),
    supported: z.boolean(),
    chunk_ids: z.array(uuid).describe('the passages the check found it supported by (chunks of the retrieval, GET …/retrieval/{chunk_id})'),
    part: z.enum(['finding', 'summary', 'unmatched']).describe('the part of the analysis the claim reviews, when it can be matched'),
    finding_index: z.number().int().min(0).nullable().describe("index in result.findings when part is 'finding'"),
  }),
);

export const coverageAspectSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    aspect: z.string().describe('one aspect of the question or topic, in a few words'),
    addressed: z.boolean().describe('the analysis addresses it (false: missing)'),
    chunk_ids: z.array(uuid).describe('the passages the analysis answers it from'),
  }),
);

export const analysisDetailSchema = /* @__PURE__ */ ifUsed(() =>
  analysisViewSchema.extend({
    claims: z
      .array(claimVerdictSchema)
      .nullable()
      .describe(
        "the last successful faithfulness check's verdict, claim by claim (null before one, or from a check before they were kept)",
      ),
    coverage_aspects: z
      .array(coverageAspectSchema)
      .nullable()
      .describe("the last successful coverage check's aspects of the question or topic, each addressed or missing"),
    edit: z
      .object({
        revision_id: uuid,
        content: z.string(),
        edited_by: z.object({ user_id: uuid, display_name: z.string().nullable() }).nullable(),
        edited_at: z.iso.datetime(),
      })
      .nullable(),
  }),
);

/** One chunk retrieval considered; `attachment_id` or `background_document_id` opens its file in GET /api/storage/view. */
/** Most items a passage's duplicates list names (its count says how many there are). */
export const DUPLICATES_LISTED = 50;

export const retrievalChunkSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    rank: z.number().int(),
    source_title: z.string(),
    type: z.enum(SOURCE_TYPES),
    included: z.boolean(),
    similarity: z.number().min(0).max(1),
    band: z.object({ key: z.enum(SIMILARITY_BAND_KEYS), label: z.string(), color: z.string(), percent: z.number().int() }),
    exclusion_reason: z.string().nullable(),
    chunk_id: uuid.nullable(),
    evidence_item_id: uuid.nullable(),
    background_document_id: uuid.nullable(),
    attachment_id: uuid.nullable(),
    attachment_file_name: z.string().nullable(),
    source_deleted: z.boolean(),
    page: z.number().int().nullable().describe('the page of its PDF the chunk starts on (null when its source is not a paged document)'),
    text: z.string().nullable(),
    text_truncated: z.boolean(),
    duplicates: z
      .object({
        count: z.number().int().describe('other evidence items holding the same passage (near-identical text)'),
        evidence: z
          .array(z.object({ evidence_id: uuid, title: z.string() }))
          .describe(`those items, by title (the first ${DUPLICATES_LISTED}); the passage was considered once for all of them`),
      })
      .describe("the passage's near-duplicate group: the same passage in other e-mails, forwards, attachments"),
  }),
);

export const analysisCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/analysis',
    status: 202,
    location: 'the analysis, to poll',
    errors: {
      404: 'Investigation, question or topic not found',
      409: 'No evidence, or the prompt type is deactivated',
      429: 'The organization is at its cap of AI work in flight (generations and checks)',
      503: 'Could not be queued; nothing was kept',
    },
    body: analysisRequestSchema,
    refuseBody: refuseDesignOnly,
    response: z.object({ analysis_id: uuid, generation_status: z.literal('queued'), poll: z.string() }),
  }),
);

export const analysisGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}',
    errors: { 404: "No such analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid }),
    response: analysisDetailSchema,
  }),
);

export const analysisAssessRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/analysis/assess',
    errors: { 404: 'Investigation, question or topic not found' },
    body: analysisRequestSchema,
    refuseBody: refuseDesignOnly,
    response: assessmentSchema,
  }),
);

export const analysisRetrievalRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/retrieval',
    errors: { 404: "No such analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid }),
    response: z.object({
      analysis_id: uuid,
      low_relevance: analysisViewSchema.shape.low_relevance,
      chunks: z.array(retrievalChunkSchema),
      summary: z.object({
        total: z.number().int(),
        included: z.number().int(),
        excluded: z.number().int(),
        rule: z
          .object({
            min_similarity: z.number().describe('the similarity floor: a passage below it is not given to the AI'),
            max_included: z.number().int().describe('at most this many passages at or above the floor are given to the AI'),
            low_relevance_included: z.number().int().describe('when none reaches the floor, this many of the closest are given instead'),
          })
          .nullable()
          .describe('the rule the passages were chosen by when the analysis was generated; null for analyses made before it was recorded'),
      }),
    }),
  }),
);

export const analysisRetrievalChunkRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/retrieval/{chunk_id}',
    errors: { 404: "No such analysis in the caller's organization, or the chunk is not among its retrieval" },
    params: z.object({ analysis_id: uuid, chunk_id: uuid }),
    query: z.object({
      around: z.coerce
        .number({ error: 'must be a whole number from 1 to 10' })
        .int('must be a whole number from 1 to 10')
        .min(1, 'must be a whole number from 1 to 10')
        .max(10, 'must be a whole number from 1 to 10')
        .default(1)
        .describe('chunks of the same source shown on each side of the chunk (more of the document around the passage)'),
    }),
    response: z.object({
      analysis_id: uuid,
      chunk: retrievalChunkSchema.extend({ chunk_id: uuid, text: z.string().describe('the whole chunk'), chunk_index: z.number().int() }),
      passage: z
        .object({
          text: z.string(),
          chunk_start: z.number().int(),
          chunk_end: z.number().int(),
          more_before: z.boolean(),
          more_after: z.boolean(),
        })
        .describe(
          'the chunk with its neighbouring chunks of the same source, joined where they overlap; ' +
            'passage.text.slice(chunk_start, chunk_end) is the chunk; more_before / more_after: the source goes on past the passage',
        ),
    }),
  }),
);

export const analysisListRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis',
    errors: { 404: "No such investigation in the caller's organization" },
    query: z.object({ investigation_id: uuid, ...pageQueryShape(ANALYSIS_LIST) }),
    response: z.object({ analyses: z.array(analysisViewSchema).describe('newest first'), next_cursor: nextCursorSchema }),
  }),
);

export const analysisQualityCheckRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/analysis/{analysis_id}/quality-check',
    status: 202,
    location: "the analysis's quality status, to poll",
    errors: {
      404: "No such analysis in the caller's organization",
      409: 'Still generating, failed, or already checking',
      429: 'The organization is at its cap of AI work in flight',
      503: 'Could not be queued; nothing changed',
    },
    params: z.object({ analysis_id: uuid }),
    response: z.object({ analysis_id: uuid, generation_status: z.literal('checking'), poll: z.string() }),
  }),
);

export const analysisQualityStatusRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/quality-status',
    errors: { 404: "No such analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid }),
    response: z.object({
      analysis_id: uuid,
      generation_status: analysisViewSchema.shape.generation_status,
      quality_state: z.enum(QUALITY_STATES),
      faithfulness_score: z.number().min(0).max(1).nullable(),
      coverage_score: z.number().min(0).max(1).nullable(),
      quality_confidence: analysisViewSchema.shape.quality_confidence,
      quality_error: z.string().nullable(),
      quality_checked_at: timestamp,
      checking_since: timestamp,
      ai_wait_until: analysisViewSchema.shape.ai_wait_until,
    }),
  }),
);

export const EXPORT_FORMATS = ['json', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The analysis as a record (./export.ts): the JSON export, and what the PDF export shows. */
export const analysisExportSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    format_version: z.literal(1),
    exported_at: z.iso.datetime(),
    investigation: z.object({ investigation_id: uuid, title: z.string() }),
    analysis: analysisDetailSchema.describe(
      'the analysis as GET /api/analysis/{analysis_id} answers it: question or topic, answer, scores, confidence and its reason, claims, aspects, prompt, edit',
    ),
    findings: z
      .array(
        z.object({
          index: z.number().int().min(0),
          statement: z.string(),
          citations: z.array(
            z.object({
              chunk_id: uuid,
              source_title: z.string().nullable().describe('null when the passage is no longer among the retrieval (its chunk deleted)'),
              page: z.number().int().nullable(),
              quote: z.string().nullable().describe('the cited passage, whole'),
            }),
          ),
          claims: z.array(claimVerdictSchema).describe("the faithfulness check's verdicts on this finding"),
        }),
      )
      .describe("the answer's findings, each with its cited passages quoted and their sources"),
    retrieval: z.object({
      low_relevance: z.boolean(),
      summary: z.object({ total: z.number().int(), included: z.number().int(), excluded: z.number().int() }),
      chunks: z.array(retrievalChunkSchema).describe('every passage retrieval considered, by rank, its text whole'),
    }),
    models: z
      .array(
        z.object({
          purpose: z.enum(AI_PURPOSES),
          model_id: z.string(),
          region: z.string(),
          calls: z.number().int().min(1),
          first_at: z.iso.datetime(),
          last_at: z.iso.datetime(),
        }),
      )
      .describe('the models and regions that answered (generation, quality checks), from the AI ledger'),
    timestamps: z.object({
      requested_at: z.iso.datetime(),
      generated_at: timestamp,
      quality_checked_at: timestamp,
      engagements: z
        .array(
          z.object({ user_id: uuid, display_name: z.string().nullable(), detail_reviewed_at: timestamp, citation_checked_at: timestamp }),
        )
        .describe("each investigator's engagement gates (A: detail reviewed, B: citation checked)"),
    }),
    feedback: z.array(feedbackRecordSchema).describe('the judgments, regenerations and edits, oldest first'),
  }),
);

export const analysisExportRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/analysis/{analysis_id}/export',
    errors: { 404: "No such analysis in the caller's organization" },
    params: z.object({ analysis_id: uuid }),
    query: z.object({
      format: z
        .enum(EXPORT_FORMATS, { error: `must be one of: ${EXPORT_FORMATS.join(', ')}` })
        .default('json')
        .describe('json: the record below; pdf: the same record as a PDF document (application/pdf, a download)'),
    }),
    response: analysisExportSchema,
    documents: { 'application/pdf': 'The record as a PDF document, offered as a download (Content-Disposition: attachment)' },
  }),
);
