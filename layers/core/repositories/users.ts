import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { refused } from '#core/errors';

/** The users row of a signed-in caller (by the identity provider's subject), if the service knows them. */
export const userIdBySubject = async (db: Kysely<Database>, subject: string): Promise<string | undefined> =>
  (await db.selectFrom('users').select('id').where('idp_subject', '=', subject).executeTakeFirst())?.id;

/**
 * The users row of a signed-in investigator, created on first use from the token's claims (users are
 * provisioned in the identity provider; this service learns them when they first act). An access
 * token may carry no email: the row then gets a placeholder address under `.invalid` (RFC 2606),
 * which never delivers, until an administrator sets the real one. A member of an organization is an
 * investigator whatever groups the token names: administrators are operators in no organization
 * (docs/admin.md), and the users table holds that as a constraint.
 */
export const ensureUser = async (
  db: Kysely<Database>,
  caller: { subject: string; email: string | undefined; organizationId: string },
): Promise<string> => {
  const known = await userIdBySubject(db, caller.subject);
  if (known) return known;
  const email = caller.email ?? `${caller.subject}@users.invalid`;
  const created = await db
    .insertInto('users')
    .values({
      organization_id: caller.organizationId,
      idp_subject: caller.subject,
      email,
      display_name: email.split('@')[0]!,
      role: 'investigator',
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  // nothing inserted: a concurrent first request created it meanwhile, or the email is another user's
  const id = created?.id ?? (await userIdBySubject(db, caller.subject));
  if (!id) throw refused('Your account could not be set up here: its email address belongs to another user. Ask an administrator.');
  return id;
};
