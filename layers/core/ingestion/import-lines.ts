/**
 * What a bulk import's file holds, line by line (pure). Two formats:
 * - ndjson: one evidence item a line, the fields of POST …/evidence, its attachments given inline as
 *   `{ file_name, content_type, text }` (there is no file to upload); blank lines are skipped;
 * - seed: one investigation of the seed format (docs/seed-format.md) — its questions and topics (added to the
 *   investigation unless it already has one of the same text or title), then its evidence entries and background
 *   documents, numbered as lines 1, 2, … in that order. Its own id, title and description are ignored: the
 *   import goes into the investigation it was started for.
 * A line with a problem is reported with the field and why, and adds nothing; the other lines go in.
 */
import * as z from 'zod';
import { uuid } from '#core/contract';
import {
  formatPath,
  seedAttachmentSchema,
  seedBackgroundDocumentSchema,
  seedEvidenceSchema,
  seedQuestionSchema,
  seedTopicSchema,
} from '#core/seed/format';
import { checkWith } from '#core/strings';
import { evidenceContent, isoDate, LIMITS, list, text } from './fields';
import { ifUsed } from '#core/if-used';

interface InlineFile {
  file_name: string;
  content_type: string;
  text: string;
}

/** One thing an import writes. */
export type ImportEntry =
  | {
      kind: 'evidence';
      title: string;
      content: string;
      collected_at: string | null;
      /** question ids (ndjson) or the file's question keys (seed) */
      questions: { ids: string[] } | { keys: string[] };
      attachments: InlineFile[];
    }
  | ({ kind: 'background_document'; title: string; included_for_ai: boolean } & InlineFile);

export interface LineProblem {
  field: string;
  message: string;
}

export type ParsedLine = { ok: true; entry: ImportEntry } | { ok: false; problems: LineProblem[] };

const ndjsonLineSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    title: text(LIMITS.title),
    content: evidenceContent.optional(),
    collected_at: isoDate.optional(),
    linked_question_ids: list(uuid, LIMITS.linkedQuestions).optional(),
    attachments: list(seedAttachmentSchema, LIMITS.attachmentsPerEvidence).optional(),
  }),
);

const problemsOf = (issues: readonly { path: string; message: string }[]): LineProblem[] =>
  issues.map((issue) => ({ field: issue.path === '' ? '(line)' : issue.path, message: issue.message }));

const checked = <S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; problems: LineProblem[] } => {
  const result = checkWith(schema, value);
  return result.ok ? { ok: true, data: result.data } : { ok: false, problems: problemsOf(result.issues) };
};

/** An ndjson line: one evidence item. */
export const parseNdjsonLine = (line: string): ParsedLine => {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, problems: [{ field: '(line)', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const result = checked(ndjsonLineSchema, value);
  if (!result.ok) return result;
  const item = result.data;
  return {
    ok: true,
    entry: {
      kind: 'evidence',
      title: item.title,
      content: item.content ?? '',
      collected_at: item.collected_at ?? null,
      questions: { ids: (item.linked_question_ids ?? []).map((id) => id.toLowerCase()) },
      attachments: item.attachments ?? [],
    },
  };
};

/** The seed format's investigation, as an import reads it: the lists are checked entry by entry, not as a whole. */
const seedImportSchema = /* @__PURE__ */ ifUsed(() =>
  z.looseObject({
    questions: z.array(z.unknown()).optional(),
    topics: z.array(z.unknown()).optional(),
    evidence: z.array(z.unknown(), { error: 'must be a list of evidence entries' }),
    background_documents: z.array(z.unknown()).optional(),
  }),
);

export interface SeedImport {
  questions: z.output<typeof seedQuestionSchema>[];
  topics: z.output<typeof seedTopicSchema>[];
  /** the evidence entries then the background documents, line 1 first */
  lines: ParsedLine[];
  /** problems of the questions and topics (line 0: the file's head) */
  problems: LineProblem[];
}

/** A seed-format investigation: what it adds, or why the file as a whole cannot be read. */
export const parseSeedImport = (json: string): { ok: true; file: SeedImport } | { ok: false; message: string } => {
  let value: unknown;
  try {
    value = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, message: `The file is not valid JSON: ${(error as Error).message}` };
  }
  const shape = seedImportSchema.safeParse(value);
  if (!shape.success)
    return {
      ok: false,
      message: 'The file is not one investigation of the seed format: it needs an "evidence" list (docs/seed-format.md).',
    };
  const problems: LineProblem[] = [];
  const entries = <S extends z.ZodType>(list: unknown[] | undefined, schema: S, name: string): z.output<S>[] =>
    (list ?? []).flatMap((entry, i) => {
      const result = checked(schema, entry);
      if (result.ok) return [result.data];
      problems.push(...result.problems.map((p) => ({ field: `${formatPath([name, i])}.${p.field}`, message: p.message })));
      return [];
    });
  const questions = entries(shape.data.questions, seedQuestionSchema, 'questions');
  const topics = entries(shape.data.topics, seedTopicSchema, 'topics');
  const keys = new Set(questions.map((q) => q.key));
  const evidence = shape.data.evidence.map((entry): ParsedLine => {
    const result = checked(seedEvidenceSchema, entry);
    if (!result.ok) return result;
    const unknown = (result.data.linked_questions ?? []).flatMap((key, i) =>
      keys.has(key) ? [] : [{ field: `linked_questions.${i}`, message: `no question with key "${key}" in this file` }],
    );
    if (unknown.length > 0) return { ok: false, problems: unknown };
    const item = result.data;
    return {
      ok: true,
      entry: {
        kind: 'evidence',
        title: item.title,
        content: item.content,
        collected_at: item.collected_at ?? null,
        questions: { keys: item.linked_questions ?? [] },
        attachments: item.attachments ?? [],
      },
    };
  });
  const documents = (shape.data.background_documents ?? []).map((entry): ParsedLine => {
    const result = checked(seedBackgroundDocumentSchema, entry);
    return result.ok ? { ok: true, entry: { kind: 'background_document', ...result.data } } : result;
  });
  return { ok: true, file: { questions, topics, lines: [...evidence, ...documents], problems } };
};
