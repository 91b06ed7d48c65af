/**
 * Administrators are the service's operators (issue 13): prompt templates, settings, queues and sweeps are
 * service-wide, so an administrator belongs to no customer organization, and an investigator always belongs
 * to one. Existing administrators leave their organization; their Cognito users still carry it and are
 * refused on admin routes until they are invited again as operators (docs/admin.md). Organization names
 * become unique: operators name them (`npm run users -- invite --organization <name>`), and the admin user
 * list groups and pages by them.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `alter table users alter column organization_id drop not null`,
      `update users set organization_id = null where role = 'admin'`,
      `alter table users add constraint users_operator_has_no_organization check ((role = 'admin') = (organization_id is null))`,
      `alter table organizations add constraint organizations_name_key unique (name)`,
    ])
      await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `alter table organizations drop constraint organizations_name_key`,
      `alter table users drop constraint users_operator_has_no_organization`,
      // an operator has no organization to go back to: it must be removed before the column is required again
      `alter table users alter column organization_id set not null`,
    ])
      await sql.raw(statement).execute(db);
  },
};
