/**
 * The per-region model request quota as a sliding-window log: one row per granted request, shared by
 * every instance through the database (a fixed-window counter would let 2× the limit through across a
 * window boundary). Rows older than the window are deleted as requests come in.
 */
import { sql, type Kysely } from 'kysely';

const up = [
  `create table ai_quota_reservations (
    id bigserial primary key,
    region text not null,
    reserved_at timestamptz not null
  )`,
  `create index ai_quota_reservations_region_idx on ai_quota_reservations (region, reserved_at)`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql.raw(`drop table if exists ai_quota_reservations`).execute(db);
  },
};
