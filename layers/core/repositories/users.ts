import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The users row of a signed-in caller (by the identity provider's subject), if the service knows them. */
export const userIdBySubject = async (db: Kysely<Database>, subject: string): Promise<string | undefined> =>
  (await db.selectFrom('users').select('id').where('idp_subject', '=', subject).executeTakeFirst())?.id;
