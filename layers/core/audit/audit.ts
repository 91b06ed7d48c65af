/**
 * The audit trail (SPEC part 11, "Audit"): admin actions, settings changes and sign-in failures write
 * one `audit_log` row each. An audit write never fails the user's request: a write that fails logs
 * `[AUDIT FAILURE]` and is remembered (best effort) in `audit_failures`, which audit-health reads.
 * Text that PostgreSQL cannot hold (NUL, unpaired surrogates) is stored escaped, never refused.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { escapeUnsafeDeep } from '#core/strings';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { AUDIT_FAILURE_MARKER } from '#manifest/runtime-names';

export { AUDIT_FAILURE_MARKER };

export interface AuditEntry {
  /** dotted action type, e.g. `admin.prompt.rollback`, `auth.login_failed` */
  action: string;
  outcome: 'success' | 'failure';
  actorUserId?: string | null;
  /** the caller's address, for anonymous actions such as a failed sign-in */
  actorAddress?: string | null;
  organizationId?: string | null;
  /** what the action was done to, e.g. `prompt:analysis_question` */
  target?: string | null;
  detail?: Record<string, unknown> | null;
}

/** Writes one audit row; true when written. Never throws. */
export const writeAudit = async (db: Kysely<Database>, raw: AuditEntry): Promise<boolean> => {
  // what a caller sent is recorded as sent, with NUL and unpaired surrogates written out as `\uXXXX`
  // text: PostgreSQL refuses them, and a refused row would lose the very attempt worth auditing
  const entry = escapeUnsafeDeep(raw);
  try {
    await db
      .insertInto('audit_log')
      .values({
        action: entry.action,
        outcome: entry.outcome,
        actor_user_id: entry.actorUserId ?? null,
        actor_address: entry.actorAddress ?? null,
        organization_id: entry.organizationId ?? null,
        target: entry.target ?? null,
        detail: entry.detail ? JSON.stringify(entry.detail) : null,
      })
      .execute();
    return true;
  } catch (error) {
    const message = (error as Error).message?.slice(0, 2000) || String(error);
    logger.error(AUDIT_FAILURE_MARKER, { action: entry.action, outcome: entry.outcome, error: message });
    countEvent('auditFailures');
    // remembered for audit-health; when the database itself is down this fails too, and the log line is what is left
    await db
      .insertInto('audit_failures')
      .values({ action: entry.action, error_message: message })
      .execute()
      .catch((cause: unknown) =>
        logger.error(AUDIT_FAILURE_MARKER, { action: entry.action, error: 'could not record the failure', cause: String(cause) }),
      );
    return false;
  }
};
