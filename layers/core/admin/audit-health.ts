/**
 * Audit health (SPEC part 11): which audit action types failed to write in a recent window, how
 * often, and the most recent error — read from `audit_failures`, where `writeAudit` remembers each
 * failed write. Any failure in the window makes the status `degraded`.
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { ifUsed } from '#core/if-used';

const AUDIT_HEALTH_WINDOW = { defaultHours: 24, maxHours: 720 } as const;

const HOURS = `must be a whole number of hours from 1 to ${AUDIT_HEALTH_WINDOW.maxHours}`;

export const auditHealthQuerySchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    window_hours: z.coerce
      .number({ error: HOURS })
      .int(HOURS)
      .min(1, HOURS)
      .max(AUDIT_HEALTH_WINDOW.maxHours, HOURS)
      .default(AUDIT_HEALTH_WINDOW.defaultHours),
  }),
);

export const auditHealthSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    status: z.enum(['healthy', 'degraded']),
    window_hours: z.number().int(),
    since: z.iso.datetime(),
    checked_at: z.iso.datetime(),
    total_failures: z.number().int(),
    failing_actions: z
      .array(
        z.object({
          action: z.string(),
          failures: z.number().int().describe('failed audit writes of this action in the window'),
          written: z.number().int().describe('audit rows of this action that were written in the window'),
          last_error_message: z.string(),
          last_failed_at: z.iso.datetime(),
        }),
      )
      .describe('most recently failing first'),
  }),
);

export type AuditHealth = z.infer<typeof auditHealthSchema>;

export const auditHealth = async (
  db: Kysely<Database>,
  { window_hours }: z.output<typeof auditHealthQuerySchema>,
  now = new Date(),
): Promise<AuditHealth> => {
  const since = new Date(now.getTime() - window_hours * 3_600_000);
  const [counts, latest] = await Promise.all([
    db
      .selectFrom('audit_failures')
      .select(['action', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('created_at', '>=', since)
      .groupBy('action')
      .execute(),
    db
      .selectFrom('audit_failures')
      .distinctOn('action')
      .select(['action', 'error_message', 'created_at'])
      .where('created_at', '>=', since)
      .orderBy('action')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const actions = counts.map((c) => c.action);
  const written =
    actions.length === 0
      ? []
      : await db
          .selectFrom('audit_log')
          .select(['action', (eb) => eb.fn.countAll<number | string>().as('n')])
          .where('created_at', '>=', since)
          .where('action', 'in', actions)
          .groupBy('action')
          .execute();
  const writtenBy = new Map(written.map((w) => [w.action, Number(w.n)]));
  const countBy = new Map(counts.map((c) => [c.action, Number(c.n)]));
  const failing = latest
    .map((l) => ({
      action: l.action,
      failures: countBy.get(l.action) ?? 0,
      written: writtenBy.get(l.action) ?? 0,
      last_error_message: l.error_message,
      last_failed_at: isoTime(l.created_at)!,
    }))
    .sort((a, b) => b.last_failed_at.localeCompare(a.last_failed_at) || a.action.localeCompare(b.action));
  return {
    status: failing.length > 0 ? 'degraded' : 'healthy',
    window_hours,
    since: since.toISOString(),
    checked_at: now.toISOString(),
    total_failures: failing.reduce((sum, f) => sum + f.failures, 0),
    failing_actions: failing,
  };
};
