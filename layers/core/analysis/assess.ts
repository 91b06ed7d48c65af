/**
 * The evidence check before generation (POST /api/analysis/assess): which evidence exists for the
 * selected analysis, and whether POST /api/analysis would accept it. It makes no AI call and does no
 * similarity scoring — it counts nothing itself either — and it is one SQL statement (one round trip)
 * that reads a handful of rows (and a second one for the readiness of the evidence): the evidence,
 * content, attachment and background document counts are
 * kept on the investigation row, the linked evidence count on the question row, by triggers in the
 * writing transaction (migrations 0004 and 0013), and the analysis type's prompt template is looked up
 * by type. The spec's limit is under 100 ms; issue 17 asks p99 ≤ 10 ms through HTTP at 100,000 evidence
 * items (`npm run bench -- assess`), at any investigation size.
 *
 * What the figures mean:
 * - total_evidence: evidence items in the investigation. This is "the evidence": the only figure
 *   that can block generation.
 * - linked_evidence: evidence items linked to the selected question (question analyses); null for
 *   every other type, which has no question to link to.
 * - background_documents.count: all background documents of the investigation; .included: whether at
 *   least one of them is included for the AI; .included_count: how many are (an addition to the
 *   documented wire names, so a client can show "2 of 3 included").
 * - source_breakdown: the sources retrieval can draw on, by the retrieval chunk types — content:
 *   evidence items whose text content is not blank; attachments: files attached to the
 *   investigation's evidence items; background_docs: background documents included for the AI (an
 *   excluded one is never retrieved, so it is not a source). Text extraction and embedding status
 *   are not looked at: a source waiting for them is still evidence the analysis will use once
 *   processed, and the check must stay a cheap count.
 * - blocking: a message when, and only when, total_evidence is 0 (then can_generate is false).
 *   Background documents alone do not count as evidence: they are reference
 *   material (policies, codes, procedures) that helps interpret evidence, and an analysis built on
 *   them alone would describe the rules, not the facts of the case.
 * - evidence_ready: evidence items ready for analysis (their files extracted, their text embedded) of
 *   all of them (ingestion/readiness.ts unfinishedEvidence: a column of the same statement, which reads only
 *   what is unfinished, so a settled investigation costs nothing more).
 * - note: informational only, never blocking — set for a question analysis when evidence exists but
 *   none is linked to the question, because retrieval searches all of the investigation's evidence
 *   by semantic similarity and still finds what is relevant; and while evidence items are still being
 *   processed, since an analysis started then waits a while for them (evidence-wait.ts).
 * - refusal: why POST /api/analysis would refuse this selection — `no_evidence` (the blocking
 *   message) or `prompt_inactive` (an administrator deactivated the type's prompt template) — or
 *   null; can_generate is exactly `refusal === null`. Create refuses with this very value (409, its
 *   message, `details.reason`), so assess and create cannot disagree. A deactivated template is kept
 *   out of `blocking`, which the spec reserves for zero evidence.
 *
 * The caller has already resolved the investigation (and question) within the caller's organization
 * (see ./selection); this module does no access check of its own.
 */
import { sql, type Kysely } from 'kysely';
import * as z from 'zod';
import type { AnalysisType, Database } from '#core/db/schema';
import { itemCountsOf, unfinishedEvidence, type ItemCounts, type UnfinishedCounts } from '#core/ingestion/readiness';
import { activeVersions, PROMPT_TYPE, promptUnavailableMessage } from './prompts';
import { selectionOf, selectionQuery, type AnalysisRequest, type Selection } from './selection';
import { ifUsed } from '#core/if-used';

const count = /* @__PURE__ */ ifUsed(() => z.number().int().nonnegative());

/** Why generation is refused, in the order checked: the first that applies is reported. */
const REFUSAL_REASONS = ['no_evidence', 'prompt_inactive'] as const;
type RefusalReason = (typeof REFUSAL_REASONS)[number];
export interface Refusal {
  reason: RefusalReason;
  message: string;
}

export const assessmentSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    total_evidence: count.describe('evidence items in the investigation'),
    linked_evidence: count.nullable().describe('evidence items linked to the selected question; null unless a question analysis'),
    background_documents: z.object({
      count: count.describe('background documents of the investigation'),
      included: z.boolean().describe('whether any background document is included for the AI'),
      included_count: count.describe('background documents included for the AI'),
    }),
    source_breakdown: z.object({
      content: count.describe('evidence items with non-blank text content'),
      attachments: count.describe("attachments of the investigation's evidence items"),
      background_docs: count.describe('background documents included for the AI'),
    }),
    evidence_ready: z
      .object({
        ready: count.describe('evidence items ready for analysis: their files extracted and their text embedded'),
        total: count.describe('evidence items in the investigation (total_evidence)'),
      })
      .describe('how far the evidence has been processed; an analysis started before all is ready waits a while for it'),
    note: z
      .string()
      .nullable()
      .describe('informational (never blocks): no evidence is linked directly to the question; evidence items still being processed'),
    blocking: z.string().nullable().describe('set only when the investigation has no evidence; generation cannot proceed'),
    refusal: z
      .object({
        reason: z
          .enum(REFUSAL_REASONS)
          .describe(
            'no_evidence: the investigation has no evidence item; prompt_inactive: the prompt template of the analysis type is deactivated',
          ),
        message: z.string().describe('for the user; the same message POST /api/analysis answers 409 with'),
      })
      .nullable()
      .describe(
        'why POST /api/analysis would refuse this selection (409 with this message and details.reason); null when it would accept it',
      ),
    can_generate: z.boolean().describe('true exactly when refusal is null'),
  }),
);

export type Assessment = z.infer<typeof assessmentSchema>;

export const BLOCKING_NO_EVIDENCE = 'This investigation has no evidence yet. Add at least one evidence item before generating an analysis.';
const BACKGROUND_ONLY = ' Background documents are reference material, not evidence, so they cannot be analysed on their own.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const noLinkedEvidenceNote = (totalEvidence: number): string =>
  `No evidence is linked directly to this question. That does not block the analysis: it searches all ${plural(totalEvidence, 'evidence item', 'evidence items')} ` +
  'of the investigation by semantic similarity, so relevant evidence is still found.';

/** Informational: evidence items still being processed when the check ran. */
export const processingNote = (processing: number, total: number): string =>
  `${processing} of ${plural(total, 'evidence item', 'evidence items')} ${processing === 1 ? 'is' : 'are'} still being processed (text extraction or embeddings). ` +
  'An analysis started now waits a little for them, then uses the evidence that is ready.';

/**
 * The rule for "can this analysis be generated", shared by assess and create: evidence first (an
 * investigation without evidence cannot be analysed whatever the template), then an active template.
 */
export const generationRefusal = (facts: { blocking: string | null; promptType: string; promptActive: boolean }): Refusal | null => {
  if (facts.blocking !== null) return { reason: 'no_evidence', message: facts.blocking };
  if (!facts.promptActive) return { reason: 'prompt_inactive', message: promptUnavailableMessage(facts.promptType) };
  return null;
};

/**
 * What the statement reads besides the selection: every count is kept up to date by triggers (migrations
 * 0004 and 0013) on the investigation's row (`i`) and the question's (`q`, left joined: null unless a
 * question analysis), the type's prompt templates are looked up by type, and the evidence's unfinished parts
 * come from partial indexes — a handful of rows for a settled investigation, whatever its size. Raw column
 * references, as the selection's query names its tables.
 */
const countColumns = (db: Kysely<Database>, promptType: string) =>
  [
    sql<number>`i.evidence_count`.as('total_evidence'),
    sql<number>`i.content_evidence_count`.as('with_content'),
    sql<number>`i.attachment_count`.as('attachments'),
    sql<number>`i.background_document_count`.as('background_total'),
    sql<number>`i.background_included_count`.as('background_included'),
    sql<number | null>`q.linked_evidence_count`.as('linked'),
    sql<boolean>`exists (${activeVersions(db, promptType).select(sql`1`.as('one'))})`.as('prompt_active'),
    unfinishedEvidence(sql<string>`i.id`).as('unfinished'),
  ] as const;

type CountRow = {
  total_evidence: number;
  with_content: number;
  attachments: number;
  background_total: number;
  background_included: number;
  linked: number | null;
  prompt_active: boolean;
  unfinished: UnfinishedCounts;
};

const assessmentOf = (row: CountRow, analysisType: AnalysisType): Assessment => {
  const isQuestion = analysisType === 'question';
  const promptType = PROMPT_TYPE[analysisType];
  const totalEvidence = row.total_evidence;
  const readiness: ItemCounts = itemCountsOf(totalEvidence, row.unfinished);
  const linked = isQuestion ? (row.linked ?? 0) : null;
  const blocking = totalEvidence === 0 ? BLOCKING_NO_EVIDENCE + (row.background_total > 0 ? BACKGROUND_ONLY : '') : null;
  const refusal = generationRefusal({ blocking, promptType, promptActive: row.prompt_active });
  const notes = [
    isQuestion && totalEvidence > 0 && linked === 0 ? noLinkedEvidenceNote(totalEvidence) : null,
    readiness.processing > 0 ? processingNote(readiness.processing, totalEvidence) : null,
  ].filter((n) => n !== null);

  return {
    total_evidence: totalEvidence,
    linked_evidence: linked,
    background_documents: { count: row.background_total, included: row.background_included > 0, included_count: row.background_included },
    source_breakdown: { content: row.with_content, attachments: row.attachments, background_docs: row.background_included },
    evidence_ready: { ready: readiness.ready, total: totalEvidence },
    note: notes.length > 0 ? notes.join(' ') : null,
    blocking,
    refusal,
    can_generate: refusal === null,
  };
};

/**
 * The selection (./selection: the same 404s as resolveSelection) and its counts in one statement, one round
 * trip: the counts are columns of the rows the selection reads anyway, and the readiness of the evidence a
 * column that reads only what is unfinished. What the route and create use.
 */
export const assessSelection = async (
  db: Kysely<Database>,
  organizationId: string,
  request: AnalysisRequest,
): Promise<{ selection: Selection; assessment: Assessment }> => {
  const row = await selectionQuery(db, organizationId, request)
    .select(countColumns(db, PROMPT_TYPE[request.analysis_type]))
    .executeTakeFirst();
  const selection = selectionOf(row, request);
  return { selection, assessment: assessmentOf(row!, request.analysis_type) };
};
