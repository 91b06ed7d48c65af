/**
 * The evidence check before generation (POST /api/analysis/assess): which evidence exists for the
 * selected analysis, and whether POST /api/analysis would accept it. It makes no AI call and does no
 * similarity scoring — it only counts rows — and it is one SQL statement (one round trip): the
 * evidence, content and attachment counts are kept on the investigation row by triggers (migration
 * 0004), the background documents and question links are counted through their indexes, and the
 * analysis type's prompt template is looked up by type. The spec's limit is under 100 ms, at any
 * investigation size.
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
 * - note: informational only, never blocking — set for a question analysis when evidence exists but
 *   none is linked to the question, because retrieval searches all of the investigation's evidence
 *   by semantic similarity and still finds what is relevant.
 * - refusal: why POST /api/analysis would refuse this selection — `no_evidence` (the blocking
 *   message) or `prompt_inactive` (an administrator deactivated the type's prompt template) — or
 *   null; can_generate is exactly `refusal === null`. Create refuses with this very value (409, its
 *   message, `details.reason`), so assess and create cannot disagree. A deactivated template is kept
 *   out of `blocking`, which the spec reserves for zero evidence.
 *
 * The caller has already resolved the investigation (and question) within the caller's organization
 * (see ./selection); this module does no access check of its own.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import * as z from 'zod';
import type { AnalysisType, Database } from '#core/db/schema';
import { activeVersions, PROMPT_TYPE, promptUnavailableMessage } from './prompts';

const count = z.number().int().nonnegative();

/** Why generation is refused, in the order checked: the first that applies is reported. */
const REFUSAL_REASONS = ['no_evidence', 'prompt_inactive'] as const;
type RefusalReason = (typeof REFUSAL_REASONS)[number];
export interface Refusal {
  reason: RefusalReason;
  message: string;
}

export const assessmentSchema = z.object({
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
  note: z.string().nullable().describe('informational (never blocks): no evidence is linked directly to the question'),
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
});

export type Assessment = z.infer<typeof assessmentSchema>;

export interface AssessmentInput {
  investigationId: string;
  analysisType: AnalysisType;
  /** required for a question analysis, ignored otherwise */
  questionId?: string;
}

export const BLOCKING_NO_EVIDENCE = 'This investigation has no evidence yet. Add at least one evidence item before generating an analysis.';
const BACKGROUND_ONLY = ' Background documents are reference material, not evidence, so they cannot be analysed on their own.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const noLinkedEvidenceNote = (totalEvidence: number): string =>
  `No evidence is linked directly to this question. That does not block the analysis: it searches all ${plural(totalEvidence, 'evidence item', 'evidence items')} ` +
  'of the investigation by semantic similarity, so relevant evidence is still found.';

/**
 * The rule for "can this analysis be generated", shared by assess and create: evidence first (an
 * investigation without evidence cannot be analysed whatever the template), then an active template.
 */
export const generationRefusal = (facts: { blocking: string | null; promptType: string; promptActive: boolean }): Refusal | null => {
  if (facts.blocking !== null) return { reason: 'no_evidence', message: facts.blocking };
  if (!facts.promptActive) return { reason: 'prompt_inactive', message: promptUnavailableMessage(facts.promptType) };
  return null;
};

const int = (expression: RawBuilder<unknown>) => sql<number>`cast(${expression} as int)`;

/** Counts what the investigation holds for the selected analysis and says whether generation can proceed (and if not, why). */
export const assessEvidence = async (db: Kysely<Database>, input: AssessmentInput): Promise<Assessment> => {
  const { investigationId, analysisType, questionId } = input;
  if (analysisType === 'question' && !questionId)
    throw new TypeError('a question analysis is assessed for a question: questionId is required');
  const isQuestion = analysisType === 'question';
  const promptType = PROMPT_TYPE[analysisType];

  const row = await db
    .selectFrom([
      // counts kept on the investigation row by triggers (migration 0004): one row, whatever the size
      db
        .selectFrom('investigations')
        .where('id', '=', investigationId)
        .select(['evidence_count as total', 'content_evidence_count as with_content', 'attachment_count as attachments'])
        .as('e'),
      db
        .selectFrom('background_documents')
        .where('investigation_id', '=', investigationId)
        .select([int(sql`count(*)`).as('total'), int(sql`count(*) filter (where included_for_ai)`).as('included')])
        .as('b'),
      // a non-question analysis asks for no link count: the subquery is a constant then, not a scan
      (isQuestion
        ? db
            .selectFrom('evidence_question_links as l')
            .innerJoin('evidence_items as li', 'li.id', 'l.evidence_item_id')
            .where('l.question_id', '=', questionId!)
            .where('li.investigation_id', '=', investigationId)
            .select(int(sql`count(*)`).as('linked'))
        : db.selectNoFrom(sql<number | null>`null::int`.as('linked'))
      ).as('l'),
    ])
    .select((eb) => [
      'e.total as total_evidence',
      'e.with_content',
      'e.attachments',
      'b.total as background_total',
      'b.included as background_included',
      'l.linked',
      // PostgreSQL answers a boolean (kysely's type also allows SQLite's 0/1)
      eb
        .exists(activeVersions(db, promptType).select(sql`1`.as('one')))
        .$castTo<boolean>()
        .as('prompt_active'),
    ])
    .executeTakeFirstOrThrow();

  const totalEvidence = row.total_evidence;
  const linked = isQuestion ? (row.linked ?? 0) : null;
  const blocking = totalEvidence === 0 ? BLOCKING_NO_EVIDENCE + (row.background_total > 0 ? BACKGROUND_ONLY : '') : null;
  const refusal = generationRefusal({ blocking, promptType, promptActive: row.prompt_active });
  const note = isQuestion && totalEvidence > 0 && linked === 0 ? noLinkedEvidenceNote(totalEvidence) : null;

  return {
    total_evidence: totalEvidence,
    linked_evidence: linked,
    background_documents: { count: row.background_total, included: row.background_included > 0, included_count: row.background_included },
    source_breakdown: { content: row.with_content, attachments: row.attachments, background_docs: row.background_included },
    note,
    blocking,
    refusal,
    can_generate: refusal === null,
  };
};
