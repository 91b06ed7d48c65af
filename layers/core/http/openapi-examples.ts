/**
 * Examples for the OpenAPI document, per operation: what a client sends and gets back on the main path
 * (ask, poll, read, judge). test/http/openapi.test.ts parses each with the route's zod contract, so an
 * example cannot drift from what the service accepts and answers.
 */
const INVESTIGATION = '2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01';
const QUESTION = '6a1f0c3e-2b4d-4e8f-9a7b-0c1d2e3f4a01';
const ANALYSIS = 'c8864d97-5569-4e13-bf4f-c6ae8f7f44ac';
const CHUNK = '9d2e4f60-1a3b-4c5d-8e7f-a0b1c2d3e4f5';
const CREATED = '2026-05-01T09:12:44.000Z';

const analysis = {
  analysis_id: ANALYSIS,
  investigation_id: INVESTIGATION,
  analysis_type: 'question',
  question_id: QUESTION,
  question_text: 'Who approved the transfer to Baltic Industrial Supply, and when?',
  topic_id: null,
  topic_title: null,
  regenerated_from: null,
  generation_status: 'verified',
  error_message: null,
  ai_wait_until: null,
  waiting_for_evidence: null,
  result: {
    summary: 'The CFO approved the 9,800 EUR transfer before the invoice was received.',
    findings: [{ statement: 'The approval email is dated two days before invoice BIS-1041.', citations: [CHUNK] }],
    confidence: 'probable',
    evidence_gaps: ['No record of who entered the payment.'],
  },
  faithfulness_score: 0.92,
  coverage_score: 0.81,
  quality_confidence: 'probable',
  confidence_reason: 'Faithfulness 92 % and coverage 81 % give probable; retrieval similarity 74 % is not weak.',
  quality_applies_to: 'ai_text',
  edited: false,
  quality_note: null,
  evidence_coverage: { considered: 4, total: 5, background_documents_considered: 1 },
  retrieval_quality: { included: 6, excluded: 14, max_similarity: 0.71 },
  low_relevance: false,
  validation_status: 'valid',
  token_usage: { input_tokens: 5210, output_tokens: 412 },
  prompt_type: 'analysis_question',
  prompt_version: 2,
  model_id: 'anthropic.claude-sonnet-4-20250514-v1:0',
  detail_reviewed_at: null,
  citation_checked_at: null,
  judgment_enabled: false,
  feedback_status: null,
  feedback_badge: null,
  created_at: CREATED,
  generated_at: '2026-05-01T09:13:02.000Z',
};

export const OPENAPI_EXAMPLES: Record<string, { request?: unknown; response?: unknown }> = {
  'investigations-list': {
    response: {
      investigations: [
        {
          investigation_id: INVESTIGATION,
          title: 'Northwind supplier payments',
          description: 'Payments to a new supplier without a purchase order.',
          evidence_count: 32,
          background_document_count: 3,
          created_at: CREATED,
        },
      ],
      next_cursor: null,
    },
  },
  'analysis-assess': { request: { investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION } },
  'analysis-create': {
    request: { investigation_id: INVESTIGATION, analysis_type: 'question', question_id: QUESTION },
    response: { analysis_id: ANALYSIS, generation_status: 'queued', poll: `/api/analysis/${ANALYSIS}` },
  },
  'analysis-get': {
    response: {
      ...analysis,
      claims: [
        {
          statement: 'The approval email is dated two days before invoice BIS-1041.',
          supported: true,
          chunk_ids: [CHUNK],
          part: 'finding',
          finding_index: 0,
        },
      ],
      coverage_aspects: [
        { aspect: 'who approved the transfer', addressed: true, chunk_ids: [CHUNK] },
        { aspect: 'when it was approved', addressed: true, chunk_ids: [CHUNK] },
      ],
      edit: null,
    },
  },
  'analysis-list': { response: { analyses: [analysis], next_cursor: null } },
  'analysis-feedback-create': { request: { action: 'regenerate', reason: 'wrong_focus', direction: 'Focus on who approved the payment.' } },
};
