/** Reading column values the same way on both engines (pg returns jsonb parsed, timestamps as Date). */

/** A jsonb column, parsed if it came back as text. */
export const jsonColumn = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T);

/** A timestamp column as ISO 8601 UTC, or null. */
export const isoTime = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
