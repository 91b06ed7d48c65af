/**
 * The one pagination convention of every list: `limit` (page size) and `cursor` in the query, and
 * `next_cursor` in the body, null on the last page. A cursor is opaque to clients: the last item's place
 * in the list's order (keyset paging), so a page is never skipped or repeated when rows are added.
 */
import { sql } from 'kysely';
import * as z from 'zod';
import { validationFailed } from './errors';
import { checkWith } from './strings';
import { ifUsed } from '#core/if-used';

const CURSOR_MESSAGE = 'must be the next_cursor of the previous page';

/** The query fields of a list: `limit` from 1 to `maxLimit` (default `defaultLimit`) and an optional cursor. */
export const pageQueryShape = ({ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number }) => {
  const limitMessage = `must be a whole number from 1 to ${maxLimit}`;
  return {
    limit: z.coerce
      .number({ error: limitMessage })
      .int(limitMessage)
      .min(1, limitMessage)
      .max(maxLimit, limitMessage)
      .default(defaultLimit)
      .describe(`page size, 1 to ${maxLimit}`),
    cursor: z
      .string()
      .min(1, CURSOR_MESSAGE)
      .max(1000, CURSOR_MESSAGE)
      .optional()
      .describe('the `next_cursor` of the previous page; omit for the first page'),
  };
};

export const nextCursorSchema = /* @__PURE__ */ ifUsed(() =>
  z.string().nullable().describe('pass as `cursor` for the next page; null on the last page'),
);

/** A cursor from a place in the list's order (strings and numbers, JSON-encoded, base64url). */
const encodeCursor = (place: readonly (string | number)[]): string => Buffer.from(JSON.stringify(place)).toString('base64url');

/** The place a cursor encodes, checked against `schema`; a malformed cursor is a 400 on `cursor`. */
export const decodeCursor = <T>(cursor: string, schema: z.ZodType<T>): T => {
  let place: unknown;
  try {
    place = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    /* reported below */
  }
  // the string rule too (no NUL, no unpaired surrogate): a forged cursor's strings go into SQL
  const checked = checkWith(schema, place);
  if (!checked.ok) throw validationFailed([{ path: 'cursor', message: CURSOR_MESSAGE }]);
  return checked.data;
};

/**
 * A page from rows read with `limit + 1`: the first `limit` rows, and the cursor of the last one when a
 * further row shows there is a next page.
 */
export const pageOf = <R>(rows: readonly R[], limit: number, placeOf: (row: R) => readonly (string | number)[]) => {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(placeOf(last)) : null };
};

/**
 * Keyset paging by creation: a row's place is its `created_at` to the microsecond (epoch microseconds,
 * exact text, where an ISO timestamp would keep only milliseconds) and its id, which breaks ties.
 */
export const creationPlaceSchema = /* @__PURE__ */ ifUsed(() => z.tuple([z.string().regex(/^-?\d{1,19}$/), z.uuid()]));
export type CreationPlace = z.infer<typeof creationPlaceSchema>;

/** Selects a row's creation place's first part: `createdAt` (a column reference) as epoch microseconds. */
export const epochMicros = (createdAt: string) => sql<string>`(extract(epoch from ${sql.ref(createdAt)}) * 1000000)::bigint::text`;

/** The rows after `place` in an order by (created_at, id), newest first (`desc`) or oldest first (`asc`). */
export const afterCreationPlace = (createdAt: string, id: string, order: 'asc' | 'desc', [micros, placeId]: CreationPlace) =>
  sql<boolean>`(${sql.ref(createdAt)}, ${sql.ref(id)}) ${sql.raw(order === 'desc' ? '<' : '>')} (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${placeId}::uuid)`;
