/**
 * Every admin write leaves one audit row — the refused attempts too (outcome `failure`, with the
 * error's code and message), so the trail shows what an administrator tried, not only what changed.
 * The row is written after the change has committed (an audit row inside the change's transaction
 * would take the change down with it when the audit insert fails), and `writeAudit` never throws.
 */
import type { Kysely } from 'kysely';
import type { Caller } from '#core/auth/caller';
import { writeAudit } from '#core/audit/audit';
import type { Database } from '#core/db/schema';
import { database } from '#core/db/connection';
import { DomainError } from '#core/errors';
import { userIdBySubject } from '#core/repositories/users';

export interface AdminActor {
  /** the admin's users row; null when the identity provider knows them but the service does not */
  userId: string | null;
  subject: string;
  organizationId: string | null;
}

export const adminActor = async (db: Kysely<Database>, caller: Caller): Promise<AdminActor> => ({
  userId: (await userIdBySubject(db, caller.subject)) ?? null,
  subject: caller.subject,
  organizationId: caller.organizationId ?? null,
});

export interface AuditedResult<T> {
  result: T;
  /** what was changed, when it is only known once the change ran */
  target?: string | null;
  detail?: Record<string, unknown>;
}

const errorDetail = (error: unknown) =>
  error instanceof DomainError
    ? { code: error.code, message: error.message, ...(error.details !== undefined && { details: error.details }) }
    : { code: 'internal_error', message: error instanceof Error ? error.message.slice(0, 500) : String(error) };

/**
 * Runs one admin write and audits it: `success` with the write's detail, or `failure` with the
 * error (which is then rethrown unchanged, so the caller gets the same 4xx/5xx).
 */
export const auditedWrite = async <T>(
  db: Kysely<Database>,
  actor: AdminActor,
  audit: { action: string; target: string | null },
  write: () => Promise<AuditedResult<T>>,
): Promise<T> => {
  try {
    const { result, target, detail } = await write();
    await writeAudit(db, {
      action: audit.action,
      actorUserId: actor.userId,
      organizationId: actor.organizationId,
      outcome: 'success',
      target: target ?? audit.target,
      detail: { actor_subject: actor.subject, ...detail },
    });
    return result;
  } catch (error) {
    await auditFailure(db, actor, audit, error);
    throw error;
  }
};

const auditFailure = (db: Kysely<Database>, actor: AdminActor, audit: { action: string; target: string | null }, error: unknown) =>
  writeAudit(db, {
    action: audit.action,
    actorUserId: actor.userId,
    organizationId: actor.organizationId,
    outcome: 'failure',
    target: audit.target,
    detail: { actor_subject: actor.subject, error: errorDetail(error) },
  });

/** An admin write the route refused before it ran (a body that is not JSON, a field its contract refuses), as the route wrapper reports it. */
export interface RefusedAdminWrite {
  caller: Caller | undefined;
  /** the body, when it was JSON */
  content: unknown;
  event: { pathParameters?: Record<string, string | undefined> };
}

/** The route's `refused` hook: audits a refused admin write as a failure of `action`, like one refused while it ran. */
export const auditRefusedWrite =
  (action: string, targetOf: (attempt: RefusedAdminWrite) => string | null, connect = database) =>
  async (attempt: RefusedAdminWrite, refusal: DomainError): Promise<void> => {
    const db = await connect();
    await auditFailure(db, await adminActor(db, attempt.caller!), { action, target: targetOf(attempt) }, refusal);
  };

/** A field of a refused body, when the body was a JSON object. */
export const fieldOf = (content: unknown, name: string): unknown =>
  content !== null && typeof content === 'object' && !Array.isArray(content) ? (content as Record<string, unknown>)[name] : undefined;
