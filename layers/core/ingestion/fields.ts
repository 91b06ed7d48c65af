/**
 * The fields evidence is made of, as every way in checks them: the ingestion routes, a bulk import's lines and
 * the seed format (seed/format.ts). One definition each, so a title the API accepts is one a seed file may hold.
 * The messages are for people; a missing value or a wrong type falls through to the parser's own.
 */
import * as z from 'zod';
import { ifUsed } from '#core/if-used';

export const LIMITS = {
  name: 200,
  title: 300,
  description: 10_000,
  questionText: 2_000,
  evidenceContent: 200_000,
  /** an attachment's or background document's inline text (seed files, bulk imports) */
  fileText: 2_000_000,
  fileName: 255,
  contentType: 127,
  attachmentsPerEvidence: 50,
  linkedQuestions: 100,
  idempotencyKey: 255,
} as const;

/** A message for a schema's own failures; a missing value or a wrong type keeps the parse-wide message. */
export const unless =
  (message: string) =>
  (issue: z.core.$ZodRawIssue): string | undefined =>
    issue.code === 'invalid_type' || issue.input === undefined ? undefined : message;

/** Trimmed text of 1 to `max` characters. */
export const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
export const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

/** A file name only: no folders, no control characters (it becomes the last part of a storage key). */
export const fileName = /* @__PURE__ */ ifUsed(() =>
  text(LIMITS.fileName).refine(
    // eslint-disable-next-line no-control-regex
    (name) => !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..',
    'must be a plain file name (no "/", "\\" or control characters)',
  ),
);

export const contentType = /* @__PURE__ */ ifUsed(() =>
  z
    .string()
    .trim()
    .max(LIMITS.contentType)
    .regex(
      /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9-]+=[^;]+)*$/i,
      'must be a media type such as text/plain or text/csv',
    ),
);

export const isoDate = /* @__PURE__ */ ifUsed(() =>
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: unless('must be an ISO 8601 date (2024-03-15) or date-time with time zone (2024-03-15T09:30:00Z)'),
  }),
);

/** An evidence item's own text: may be empty when the item is only its attachments. */
export const evidenceContent = /* @__PURE__ */ ifUsed(() =>
  z.string().max(LIMITS.evidenceContent, `must be at most ${LIMITS.evidenceContent} characters`),
);

/** An attachment's or background document's text given inline (seed files, bulk import lines). */
export const inlineFileText = /* @__PURE__ */ ifUsed(() =>
  z.string().min(1, 'must not be empty').max(LIMITS.fileText, `must be at most ${LIMITS.fileText} characters`),
);

export const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `must have at most ${max} entries`);
