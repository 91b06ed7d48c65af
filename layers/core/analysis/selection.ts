/**
 * What an analysis is about: the request body shared by the evidence check (POST /api/analysis/assess)
 * and analysis creation (POST /api/analysis), and its resolution against the caller's organization.
 *
 * Design decisions (cited by the README):
 * - Selection per analysis type. `question` needs `question_id` and takes no `topic_id`; `topic` needs
 *   `topic_id` and takes no `question_id`. `summary`, `gap` and `error_check` take neither: like a
 *   summary, a gap analysis (what the evidence does not yet establish) and an error check
 *   (contradictions and inconsistencies between items) work over the whole investigation — the spec
 *   ties a selection only to Question and Topic analyses. An id sent where the type takes none is a
 *   400, not silently ignored, so a client never believes an analysis was scoped when it was not.
 *   `null` counts as "not sent", which is what a form with an empty picker posts.
 * - The four design-only types (Comparative Analysis, Timeline Analysis, Witness Credibility, Risk
 *   Assessment) are recognised in any common spelling — any case, words joined by spaces, hyphens,
 *   underscores or nothing, with or without a trailing "analysis" — and refused with a 400 of their
 *   own (`analysis_type_unavailable`) whose message says the type is design-only and not available.
 *   That check runs before any other validation, so the caller gets that message rather than a
 *   generic "not one of the allowed values".
 * - Another organization's investigation is indistinguishable from a missing one (404). A question
 *   or topic must belong to the selected investigation; one of another investigation is a 404 too.
 */
import { sql, type Kysely } from 'kysely';
import * as z from 'zod';
import type { AnalysisType, Database } from '#core/db/schema';
import { DomainError, notFound } from '#core/errors';
import { uuid } from '#core/contract';
import { ANALYSIS_TYPES } from '#core/domain/analysis-types';
import { ifUsed } from '#core/if-used';

export { ANALYSIS_TYPES };

/** Design-only analysis types (spec, item 9): named so they can be refused clearly, never generated. */
const DESIGN_ONLY_ANALYSIS_TYPES = {
  comparative_analysis: 'Comparative Analysis',
  timeline_analysis: 'Timeline Analysis',
  witness_credibility: 'Witness Credibility',
  risk_assessment: 'Risk Assessment',
} as const;

export const ANALYSIS_TYPE_UNAVAILABLE = 'analysis_type_unavailable';

const squash = (value: string) => value.toLowerCase().replace(/[\s_-]+/g, '');

const designOnlyBySpelling = new Map<string, string>(
  Object.values(DESIGN_ONLY_ANALYSIS_TYPES).flatMap((label) => {
    const base = squash(label).replace(/analysis$/, '');
    return [
      [base, label],
      [`${base}analysis`, label],
    ] as [string, string][];
  }),
);

/** The display name of a design-only analysis type if `value` spells one (any case or separator), else undefined. */
export const designOnlyType = (value: unknown): string | undefined =>
  typeof value === 'string' ? designOnlyBySpelling.get(squash(value.trim())) : undefined;

const unavailableMessage = (label: string) =>
  `${label} is a design-only analysis type and is not available. Available types: ${ANALYSIS_TYPES.join(', ')}.`;

const analysisType = /* @__PURE__ */ ifUsed(() =>
  z
    .enum(ANALYSIS_TYPES, {
      error: (issue) => {
        const label = designOnlyType(issue.input);
        if (label) return unavailableMessage(label);
        if (issue.input === undefined) return 'is required';
        return `must be one of ${ANALYSIS_TYPES.join(', ')}`;
      },
    })
    .describe('question and topic analyses need question_id or topic_id; summary, gap and error_check cover the whole investigation'),
);

const SELECTION: Record<AnalysisType, 'question_id' | 'topic_id' | null> = {
  question: 'question_id',
  topic: 'topic_id',
  summary: null,
  gap: null,
  error_check: null,
};

const SELECTION_FIELDS = ['question_id', 'topic_id'] as const;

/** Base fields common to every validated request. */
interface RequestBase {
  investigation_id: string;
}

/** A validated analysis request; the selection id is present exactly when the type needs it. */
export type AnalysisRequest =
  | (RequestBase & { analysis_type: 'question'; question_id: string; topic_id?: undefined })
  | (RequestBase & { analysis_type: 'topic'; topic_id: string; question_id?: undefined })
  | (RequestBase & { analysis_type: 'summary' | 'gap' | 'error_check'; question_id?: undefined; topic_id?: undefined });

/**
 * Request body of assess and create (strict: unknown fields are a 400). Used as the OpenAPI body
 * contract too; the contracts add the dedicated refusal of the design-only types (`refuseDesignOnly`).
 */
export const analysisRequestSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .strictObject({
      investigation_id: uuid,
      analysis_type: analysisType,
      question_id: uuid.nullish().describe('required for, and only for, a question analysis'),
      topic_id: uuid.nullish().describe('required for, and only for, a topic analysis'),
    })
    .superRefine((value, ctx) => {
      const needed = SELECTION[value.analysis_type];
      for (const field of SELECTION_FIELDS) {
        const given = value[field] !== undefined && value[field] !== null;
        if (field === needed && !given) {
          ctx.addIssue({ code: 'custom', path: [field], message: `is required for a ${value.analysis_type} analysis` });
        } else if (field !== needed && given) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: needed
              ? `is not used by a ${value.analysis_type} analysis (it takes ${needed})`
              : `is not used by a ${value.analysis_type} analysis, which covers the whole investigation`,
          });
        }
      }
    })
    .transform((value): AnalysisRequest => {
      const base = { investigation_id: value.investigation_id };
      if (value.analysis_type === 'question') return { ...base, analysis_type: 'question', question_id: value.question_id! };
      if (value.analysis_type === 'topic') return { ...base, analysis_type: 'topic', topic_id: value.topic_id! };
      return { ...base, analysis_type: value.analysis_type };
    }),
);

/** Refuses a design-only analysis type with its own code, before any other validation. */
export const refuseDesignOnly = (body: unknown): void => {
  if (typeof body !== 'object' || body === null) return;
  const label = designOnlyType((body as Record<string, unknown>).analysis_type);
  if (!label) return;
  throw new DomainError('invalid', ANALYSIS_TYPE_UNAVAILABLE, unavailableMessage(label), [
    { path: 'analysis_type', message: `${label} is design-only and not available` },
  ]);
};

export interface Selection {
  investigation: { id: string; organization_id: string; title: string };
  /** set for question analyses */
  question?: { id: string; text: string };
  /** set for topic analyses */
  topic?: { id: string; title: string; description: string };
}

const uuidOrNull = (value: string | undefined) => sql<string>`${value ?? null}::uuid`;

/**
 * The query behind a selection: the investigation within the organization, and the named question and
 * topic of that investigation (left joined: a null id matches nothing, so an unused join yields nulls).
 * Exported so the evidence check (./assess) can read its counts from the same rows in the same round trip.
 */
export const selectionQuery = (db: Kysely<Database>, organizationId: string, request: AnalysisRequest) =>
  db
    .selectFrom('investigations as i')
    .leftJoin('questions as q', (join) => join.onRef('q.investigation_id', '=', 'i.id').on('q.id', '=', uuidOrNull(request.question_id)))
    .leftJoin('topics as t', (join) => join.onRef('t.investigation_id', '=', 'i.id').on('t.id', '=', uuidOrNull(request.topic_id)))
    .select([
      'i.id',
      'i.organization_id',
      'i.title',
      'q.id as question_id',
      'q.text as question_text',
      't.id as topic_id',
      't.title as topic_title',
      't.description as topic_description',
    ])
    .where('i.id', '=', request.investigation_id)
    .where('i.organization_id', '=', organizationId);

type SelectionRow = Awaited<ReturnType<ReturnType<typeof selectionQuery>['executeTakeFirstOrThrow']>>;

/**
 * The selection a row of `selectionQuery` names: 404 "The investigation was not found." for a missing
 * investigation or another organization's (no row), 404 for a question or topic that is missing or
 * belongs to another investigation.
 */
export const selectionOf = (row: SelectionRow | undefined, request: AnalysisRequest): Selection => {
  if (!row) throw notFound('The investigation');
  const selection: Selection = { investigation: { id: row.id, organization_id: row.organization_id, title: row.title } };
  if (request.question_id !== undefined) {
    if (row.question_id === null || row.question_text === null) throw notFound('The question');
    selection.question = { id: row.question_id, text: row.question_text };
  }
  if (request.topic_id !== undefined) {
    if (row.topic_id === null || row.topic_title === null) throw notFound('The topic');
    selection.topic = { id: row.topic_id, title: row.topic_title, description: row.topic_description ?? '' };
  }
  return selection;
};

/** Loads what the request names, scoped to the caller's organization, in one query (see selectionOf for the 404s). */
export const resolveSelection = async (db: Kysely<Database>, organizationId: string, request: AnalysisRequest): Promise<Selection> =>
  selectionOf(await selectionQuery(db, organizationId, request).executeTakeFirst(), request);
