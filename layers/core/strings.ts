/**
 * The one string rule at the edge (issue 14, item 5): no text the API accepts may hold a NUL (U+0000)
 * or an unpaired UTF-16 surrogate. PostgreSQL refuses NUL in text and `\u0000` in jsonb (a 500, or an
 * audit write that fails), and a lone surrogate cannot be encoded as UTF-8 (the driver silently turns
 * it into U+FFFD). `parseWith` applies the rule to every string of every request body, query, path
 * parameter and header value it validates — object keys included, and strings inside free-form
 * (`z.unknown()`) fields —, so no contract needs its own copy; a breach is a 400 `validation_failed`
 * naming the field. The operator functions' input (onboarding, seed imports) meets it through `checkWith`.
 */
import type * as z from 'zod';

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- the NUL is what the rule is about
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** True when the string holds a NUL or an unpaired surrogate. */
export const isUnsafeText = (text: string): boolean => UNSAFE.test(text);

/**
 * The string with every NUL and unpaired surrogate written out as literal `\uXXXX` text (six
 * characters), for storing what a caller sent — the audit trail — without losing or refusing it.
 */
export const escapeUnsafeText = (text: string): string =>
  text.replace(UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A field that fails validation, by dotted path (as zod names them), and why. */
export interface FieldIssue {
  path: string;
  message: string;
}

const MAX_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `must not be nested more than ${MAX_DEPTH} levels deep`;

/**
 * Every field (by dotted path, as zod names them) whose string value or key breaks the rule. A value
 * nested deeper than MAX_DEPTH is an issue itself: the rule cannot vouch for the strings inside it, and
 * storing it would fail anyway (JSON.stringify overflows the stack long before PostgreSQL's own limit).
 */
export const unsafeTextIssues = (value: unknown): FieldIssue[] => {
  const issues: FieldIssue[] = [];
  const walk = (v: unknown, path: string[], depth: number): void => {
    if (typeof v === 'string') {
      if (isUnsafeText(v)) issues.push({ path: path.map(escapeUnsafeText).join('.'), message: UNSAFE_TEXT_MESSAGE });
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth > MAX_DEPTH) {
      issues.push({ path: path.map(escapeUnsafeText).join('.'), message: TOO_DEEP_MESSAGE });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, String(i)], depth + 1));
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      if (isUnsafeText(key))
        issues.push({ path: [...path, key].map(escapeUnsafeText).join('.'), message: `field names ${UNSAFE_TEXT_MESSAGE}` });
      walk(item, [...path, key], depth + 1);
    }
  };
  walk(value, [], 0);
  return issues;
};

/** Escapes every string (and key) inside a value, for writing it where the rule must hold. */
export const escapeUnsafeDeep = <T>(value: T, depth = 0): T => {
  if (typeof value === 'string') return escapeUnsafeText(value) as T;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeUnsafeDeep(item, depth + 1)) as T;
  if (value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeUnsafeText(k), escapeUnsafeDeep(v, depth + 1)])) as T;
};

/**
 * Validates with a zod schema and the string rule: the data, or every issue by path (the string rule's
 * first, a field named once). `parseWith` makes a failure a 400 at the HTTP edge; input that arrives
 * elsewhere (the operator functions) uses this directly, so it meets the same rule.
 */
export const checkWith = <S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; issues: FieldIssue[] } => {
  const unsafe = unsafeTextIssues(value);
  const result = schema.safeParse(value);
  if (result.success && unsafe.length === 0) return { ok: true, data: result.data };
  const schemaIssues = result.success
    ? []
    : result.error.issues.map((i) => ({ path: i.path.map(String).map(escapeUnsafeText).join('.'), message: escapeUnsafeText(i.message) }));
  return { ok: false, issues: [...unsafe, ...schemaIssues.filter((i) => !unsafe.some((u) => u.path === i.path))] };
};

/** Issues as one line for an operator: `email: must be an email address; name: must not be empty`. */
export const describeIssues = (issues: FieldIssue[]): string => issues.map((i) => `${i.path || 'request'}: ${i.message}`).join('; ');
