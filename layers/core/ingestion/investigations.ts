/**
 * Creating and changing investigations, their questions and topics, for the investigators of an organization.
 * Every write is scoped to the caller's organization: another organization's investigation looks missing (404).
 */
import { sql, type Kysely } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import type { Database } from '#core/db/schema';
import { conflict, notFound } from '#core/errors';
import { getInvestigation, type InvestigationSummary } from '#core/repositories/investigations';
import { ensureUser } from '#core/repositories/users';

/** The most questions and topics an investigation holds: what an analysis picker can show, and the seed format's limit. */
const INVESTIGATION_LIMITS = { questions: 100, topics: 100 } as const;

const summaryOf = async (db: Kysely<Database>, organizationId: string, investigationId: string): Promise<InvestigationSummary> => {
  const detail = await getInvestigation(db, organizationId, investigationId);
  if (!detail) throw notFound('The investigation');
  const { questions: _questions, topics: _topics, ...summary } = detail;
  return summary;
};

export const createInvestigation = async (
  db: Kysely<Database>,
  caller: OrgCaller,
  input: { title: string; description?: string | undefined },
): Promise<InvestigationSummary> => {
  const row = await db.transaction().execute(async (trx) => {
    const createdBy = await ensureUser(trx, caller);
    return trx
      .insertInto('investigations')
      .values({ organization_id: caller.organizationId, title: input.title, description: input.description ?? '', created_by: createdBy })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
  });
  return {
    investigation_id: row.id,
    title: input.title,
    description: input.description ?? '',
    evidence_count: 0,
    background_document_count: 0,
    created_at: row.created_at.toISOString(),
  };
};

export const updateInvestigation = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  patch: { title?: string | undefined; description?: string | undefined },
): Promise<InvestigationSummary> => {
  const updated = await db
    .updateTable('investigations')
    .set({
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.description !== undefined && { description: patch.description }),
      updated_at: sql`now()`,
    })
    .where('id', '=', investigationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw notFound('The investigation');
  return summaryOf(db, organizationId, investigationId);
};

/**
 * The organization's investigation, or 404 (another organization's looks missing). With `lock`, its row is locked
 * for the rest of the transaction (writers of one investigation's questions and topics take their positions one
 * after the other).
 */
export const requireInvestigation = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<void> => {
  const query = db
    .selectFrom('investigations')
    .select('id')
    .where('id', '=', investigationId)
    .where('organization_id', '=', organizationId);
  const found = await (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
  if (!found) throw notFound('The investigation');
};

const nextPosition = async (trx: Kysely<Database>, table: 'questions' | 'topics', investigationId: string, limit: number, what: string) => {
  const { n, top } = await trx
    .selectFrom(table)
    .select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(max(position), -1)::int`.as('top')])
    .where('investigation_id', '=', investigationId)
    .executeTakeFirstOrThrow();
  if (n >= limit) throw conflict(`The investigation already has ${limit} ${what}, the most it may have.`);
  return top + 1;
};

export const createQuestion = (db: Kysely<Database>, organizationId: string, investigationId: string, text: string) =>
  db.transaction().execute(async (trx) => {
    await requireInvestigation(trx, organizationId, investigationId, { lock: true });
    const position = await nextPosition(trx, 'questions', investigationId, INVESTIGATION_LIMITS.questions, 'questions');
    const row = await trx
      .insertInto('questions')
      .values({ investigation_id: investigationId, text, position })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { question_id: row.id, investigation_id: investigationId, text, linked_evidence_count: 0 };
  });

export const createTopic = (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  input: { title: string; description?: string | undefined },
) =>
  db.transaction().execute(async (trx) => {
    await requireInvestigation(trx, organizationId, investigationId, { lock: true });
    const same = await trx
      .selectFrom('topics')
      .select('id')
      .where('investigation_id', '=', investigationId)
      .where(sql<boolean>`lower(title) = lower(${input.title})`)
      .executeTakeFirst();
    if (same) throw conflict(`The investigation already has a topic titled "${input.title}".`, { topic_id: same.id });
    const position = await nextPosition(trx, 'topics', investigationId, INVESTIGATION_LIMITS.topics, 'topics');
    const description = input.description ?? '';
    const row = await trx
      .insertInto('topics')
      .values({ investigation_id: investigationId, title: input.title, description, position })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { topic_id: row.id, investigation_id: investigationId, title: input.title, description };
  });
