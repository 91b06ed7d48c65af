/**
 * A prompt version's change note (issue 27): what the administrator who made it says it changes, shown on its card
 * beside the lines it changed; null for seeded versions, rollbacks (their card says what they restored) and versions
 * made without one.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table prompt_templates add column change_note text`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table prompt_templates drop column change_note`.execute(db);
  },
};
