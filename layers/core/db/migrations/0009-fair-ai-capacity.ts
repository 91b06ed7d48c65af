/**
 * Fair AI capacity (issue 14): each quota row names the organization it was granted to (null: work of no
 * organization), and a row may be a waiting mark instead of a grant (ai/quota.ts). An analysis that waits
 * for its organization's share shows until when (`ai_wait_until`), while it stays queued (or checking).
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table ai_quota_reservations add column organization_id uuid, add column granted boolean not null default true`.execute(
      db,
    );
    await sql`alter table analyses add column ai_wait_until timestamptz`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table analyses drop column ai_wait_until`.execute(db);
    await sql`alter table ai_quota_reservations drop column granted, drop column organization_id`.execute(db);
  },
};
