/**
 * Request and response schemas per function (zod). Handlers validate with them and the OpenAPI
 * document is generated from them, so the contract is written once.
 */
import * as z from 'zod';
import { assessmentSchema } from '../analysis/assess';
import { sweepRunSchema } from '../embeddings/report';
import { analysisAnswerSchema } from '../analysis/answer';
import { analysisRequestSchema } from '../analysis/selection';
import { ANALYSIS_TYPES } from '../domain/analysis-types';
import { CONFIDENCE_LEVELS } from '../domain/confidence';
import { FEEDBACK_STATUSES } from '../domain/feedback';
import { GENERATION_STATUSES } from '../domain/generation-status';
import { SIMILARITY_BAND_KEYS } from '../domain/similarity';
import { QUALITY_STATES, SOURCE_TYPES, VALIDATION_STATUSES } from '../domain/vocabulary';
import { uuid } from './params';
import { nextCursorSchema, pageQueryShape } from './pagination';
import { ANALYSIS_LIST } from '../analysis/read';
import { INVESTIGATION_LIST } from '../repositories/investigations';
import { adminContracts } from './contracts-admin';
import { authContracts } from './contracts-auth';
import { feedbackContracts } from './contracts-feedback';
import { evidenceContracts } from './contracts-evidence';
import { filesContracts } from './contracts-files';
import { operationsContracts } from './contracts-operations';

export interface RouteContract {
  /** the success status when it is not 200 */
  status?: number;
  /**
   * the statuses this route answers beyond the common ones (400, 401, 403, 429), with what each means;
   * another 2xx carries the same response body as the success status
   */
  errors?: Record<number, string>;
  /** what the Location header of the success answer names, on a route that sends one */
  location?: string;
  /** the request headers the route reads (names in lower case) */
  headers?: z.ZodObject;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response?: z.ZodType;
}

const check = z.object({ status: z.enum(['ok', 'failed']), latency_ms: z.number().int(), error: z.string().optional() });

export const investigationSummarySchema = z.object({
  investigation_id: uuid,
  title: z.string(),
  description: z.string(),
  evidence_count: z.number().int(),
  background_document_count: z.number().int(),
  created_at: z.iso.datetime(),
});

const timestamp = z.iso.datetime().nullable();

export const analysisViewSchema = z.object({
  analysis_id: uuid,
  investigation_id: uuid,
  analysis_type: z.enum(ANALYSIS_TYPES),
  question_id: uuid.nullable(),
  topic_id: uuid.nullable(),
  regenerated_from: uuid.nullable(),
  generation_status: z.enum(GENERATION_STATUSES),
  error_message: z.string().nullable(),
  /** set while the analysis (queued, or checking) waits for its organization's share of the AI quota: when it is tried next */
  ai_wait_until: timestamp,
  result: analysisAnswerSchema.nullable(),
  faithfulness_score: z.number().min(0).max(1).nullable(),
  coverage_score: z.number().min(0).max(1).nullable(),
  quality_confidence: z.enum(CONFIDENCE_LEVELS).nullable(),
  /**
   * evidence items with a chunk among those retrieval considered (included or excluded) / evidence items of
   * the investigation; background documents counted apart (null on analyses generated before they were)
   */
  evidence_coverage: z.object({
    considered: z.number().int().min(0),
    total: z.number().int().min(0),
    background_documents_considered: z.number().int().min(0).nullable(),
  }).nullable(),
  retrieval_quality: z.record(z.string(), z.unknown()).nullable(),
  low_relevance: z.boolean().describe('no retrieved chunk reached the similarity floor, so the analysis rests on the closest few, '
    + 'which may be only weakly related to the question (the prompt told the model so)'),
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
});

/** One analysis as GET /api/analysis/{id} answers: the list item and the investigator's edit, kept out of lists because it can be long. */
export const analysisDetailSchema = analysisViewSchema.extend({
  edit: z.object({
    revision_id: uuid,
    content: z.string(),
    edited_by: z.object({ user_id: uuid, display_name: z.string().nullable() }).nullable(),
    edited_at: z.iso.datetime(),
  }).nullable(),
});

/** One chunk retrieval considered; `attachment_id` or `background_document_id` opens its file in GET /api/storage/view. */
export const retrievalChunkSchema = z.object({
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
  text: z.string().nullable(),
  text_truncated: z.boolean(),
});

export const contracts = {
  health: {
    response: z.object({
      status: z.enum(['ok', 'unavailable']),
      checks: z.object({ database: check, generation_queue: check, quality_queue: check, storage: check }),
      time: z.iso.datetime(),
    }),
  },
  'investigations-list': {
    query: z.strictObject(pageQueryShape(INVESTIGATION_LIST)),
    response: z.object({ investigations: z.array(investigationSummarySchema).describe('newest first'), next_cursor: nextCursorSchema }),
  },
  'investigation-get': { errors: { 404: 'Not the caller\'s organization, or no such investigation' },
    params: z.object({ investigation_id: uuid }),
    response: investigationSummarySchema.extend({
      questions: z.array(z.object({ question_id: uuid, text: z.string(), linked_evidence_count: z.number().int() })),
      topics: z.array(z.object({ topic_id: uuid, title: z.string(), description: z.string() })),
    }),
  },
  'analysis-create': { status: 202, location: 'the analysis, to poll', errors: { 404: 'Investigation, question or topic not found', 409: 'No evidence, or the prompt type is deactivated', 429: 'The organization is at its cap of AI work in flight (generations and checks)', 503: 'Could not be queued; nothing was kept' },
    body: analysisRequestSchema,
    response: z.object({ analysis_id: uuid, generation_status: z.literal('queued'), poll: z.string() }),
  },
  'analysis-get': { errors: { 404: 'No such analysis in the caller\'s organization' },
    params: z.object({ analysis_id: uuid }),
    response: analysisDetailSchema,
  },
  'analysis-assess': { errors: { 404: 'Investigation, question or topic not found' }, body: analysisRequestSchema, response: assessmentSchema },
  'analysis-retrieval': { errors: { 404: 'No such analysis in the caller\'s organization' },
    params: z.object({ analysis_id: uuid }),
    response: z.object({
      analysis_id: uuid,
      low_relevance: analysisViewSchema.shape.low_relevance,
      chunks: z.array(retrievalChunkSchema),
      summary: z.object({ total: z.number().int(), included: z.number().int(), excluded: z.number().int() }),
    }),
  },
  'analysis-retrieval-chunk': { errors: { 404: 'No such analysis in the caller\'s organization, or the chunk is not among its retrieval' },
    params: z.object({ analysis_id: uuid, chunk_id: uuid }),
    response: z.object({
      analysis_id: uuid,
      chunk: retrievalChunkSchema.extend({ chunk_id: uuid, text: z.string().describe('the whole chunk'), chunk_index: z.number().int() }),
      passage: z.object({
        text: z.string(),
        chunk_start: z.number().int(),
        chunk_end: z.number().int(),
        more_before: z.boolean(),
        more_after: z.boolean(),
      }).describe('the chunk with its neighbouring chunks of the same source, joined where they overlap; '
        + 'passage.text.slice(chunk_start, chunk_end) is the chunk; more_before / more_after: the source goes on past the passage'),
    }),
  },
  'analysis-list': { errors: { 404: 'No such investigation in the caller\'s organization' },
    query: z.object({ investigation_id: uuid, ...pageQueryShape(ANALYSIS_LIST) }),
    response: z.object({ analyses: z.array(analysisViewSchema).describe('newest first'), next_cursor: nextCursorSchema }),
  },
  'analysis-quality-check': { status: 202, location: 'the analysis\'s quality status, to poll', errors: { 404: 'No such analysis in the caller\'s organization', 409: 'Still generating, failed, or already checking', 429: 'The organization is at its cap of AI work in flight', 503: 'Could not be queued; nothing changed' },
    params: z.object({ analysis_id: uuid }),
    response: z.object({ analysis_id: uuid, generation_status: z.literal('checking'), poll: z.string() }),
  },
  'analysis-quality-status': { errors: { 404: 'No such analysis in the caller\'s organization' },
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
  },
  'embedding-sweeper': { response: sweepRunSchema },
  ...feedbackContracts,
  ...adminContracts,
  ...operationsContracts,
  ...filesContracts,
  ...evidenceContracts,
  ...authContracts,
} satisfies Record<string, RouteContract>;

export const contractOf = (functionId: string): RouteContract => (contracts as Record<string, RouteContract>)[functionId] ?? {};

export const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
