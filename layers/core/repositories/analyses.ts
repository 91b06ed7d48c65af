/**
 * The organization's analyses: every read and write of an analysis on behalf of an investigator starts
 * here, so another organization's analysis is indistinguishable from a missing one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';

export const organizationAnalyses = (db: Kysely<Database>, organizationId: string) =>
  db
    .selectFrom('analyses as a')
    .innerJoin('investigations as i', 'i.id', 'a.investigation_id')
    .where('i.organization_id', '=', organizationId);
