/** Investigations as the SPA picks them: always scoped to the caller's organization. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { afterCreationPlace, epochMicros, pageOf, type CreationPlace } from '#core/pagination';

export interface InvestigationSummary {
  investigation_id: string;
  title: string;
  description: string;
  evidence_count: number;
  background_document_count: number;
  created_at: string;
}

export interface InvestigationDetail extends InvestigationSummary {
  questions: { question_id: string; text: string; linked_evidence_count: number }[];
  topics: { topic_id: string; title: string; description: string }[];
}

const summaries = (db: Kysely<Database>) =>
  db.selectFrom('investigations as i').select((eb) => [
    // kept exact by the 0004 triggers: no count over the evidence items on every list
    'i.id as investigation_id',
    'i.title',
    'i.description',
    'i.created_at',
    'i.evidence_count',
    eb
      .selectFrom('background_documents as b')
      .whereRef('b.investigation_id', '=', 'i.id')
      .select(sql<number>`count(*)::int`.as('n'))
      .as('background_document_count'),
  ]);

const toSummary = (row: {
  investigation_id: string;
  title: string;
  description: string;
  created_at: Date;
  evidence_count: number;
  background_document_count: number | null;
}): InvestigationSummary => ({
  ...row,
  background_document_count: row.background_document_count ?? 0,
  created_at: row.created_at.toISOString(),
});

/** Whether the investigation exists and is the organization's (another organization's looks missing). */
export const isOrganizationInvestigation = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
): Promise<boolean> =>
  (await db
    .selectFrom('investigations')
    .select('id')
    .where('id', '=', investigationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()) !== undefined;

export const INVESTIGATION_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

/** The organization's investigations, newest first (ties broken by id): a page of `limit` after `after`. */
export const listInvestigations = async (
  db: Kysely<Database>,
  organizationId: string,
  { limit, after }: { limit: number; after?: CreationPlace },
): Promise<{ investigations: InvestigationSummary[]; next_cursor: string | null }> => {
  let query = summaries(db).select(epochMicros('i.created_at').as('created_micros')).where('i.organization_id', '=', organizationId);
  if (after) query = query.where(afterCreationPlace('i.created_at', 'i.id', 'desc', after));
  const rows = await query
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(limit + 1)
    .execute();
  const { items, next_cursor } = pageOf(rows, limit, (row) => [row.created_micros, row.investigation_id]);
  return { investigations: items.map(({ created_micros: _place, ...row }) => toSummary(row)), next_cursor };
};

/** One investigation of the organization, or undefined — another organization's looks exactly like a missing one. */
export const getInvestigation = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
): Promise<InvestigationDetail | undefined> => {
  const row = await summaries(db).where('i.organization_id', '=', organizationId).where('i.id', '=', investigationId).executeTakeFirst();
  if (!row) return undefined;
  const [questions, topics] = await Promise.all([
    db
      .selectFrom('questions as q')
      .where('q.investigation_id', '=', investigationId)
      .orderBy('q.position')
      .orderBy('q.created_at')
      .select((eb) => [
        'q.id as question_id',
        'q.text',
        eb
          .selectFrom('evidence_question_links as l')
          .whereRef('l.question_id', '=', 'q.id')
          .select(sql<number>`count(*)::int`.as('n'))
          .as('linked_evidence_count'),
      ])
      .execute(),
    db
      .selectFrom('topics')
      .where('investigation_id', '=', investigationId)
      .orderBy('position')
      .orderBy('created_at')
      .select(['id as topic_id', 'title', 'description'])
      .execute(),
  ]);
  return {
    ...toSummary(row),
    questions: questions.map((q) => ({ ...q, linked_evidence_count: q.linked_evidence_count ?? 0 })),
    topics,
  };
};
