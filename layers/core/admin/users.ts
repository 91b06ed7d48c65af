/**
 * Users for administrators, grouped by organization — the operators (administrators, who belong to
 * none) first, then each organization by name — each with their AI usage from the ledger (`ai_calls`:
 * one row per model attempt made on the user's behalf — analyses and their quality checks). Pages of
 * `limit` users; the next page starts after the previous page's `next_cursor` (../pagination.ts).
 */
import { sql, type Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { ROLES } from '#core/domain/vocabulary';
import { decodeCursor, nextCursorSchema, pageOf, pageQueryShape } from '#core/pagination';
import { ifUsed } from '#core/if-used';

const USER_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

export const usersQuerySchema = /* @__PURE__ */ ifUsed(() => z.strictObject(pageQueryShape(USER_LIST)));

/** A user's place in the order: organization name ('' for the operators), email. */
const userPlaceSchema = /* @__PURE__ */ ifUsed(() => z.tuple([z.string(), z.string()]));

const userSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: z.enum(ROLES),
    created_at: z.iso.datetime(),
    ai_usage: z.object({
      calls: z.number().int().describe('the AI usage count: every ledger row of the user (all outcomes)'),
      successful_calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      last_call_at: z.iso.datetime().nullable(),
    }),
  }),
);

export const usersSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    organizations: z
      .array(
        z.object({
          organization_id: z.string().nullable().describe('null: the operators (administrators belong to no organization)'),
          organization_name: z.string().nullable(),
          users: z.array(userSchema),
        }),
      )
      .describe("this page's users by organization, operators first, then by organization name; users by email"),
    next_cursor: nextCursorSchema,
  }),
);

export type UserList = z.infer<typeof usersSchema>;

export const listUsers = async (db: Kysely<Database>, { limit, cursor }: z.output<typeof usersQuerySchema>): Promise<UserList> => {
  const orgKey = sql<string>`coalesce(o.name, '')`;
  let page = db
    .selectFrom('users as u')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.display_name', 'u.role', 'u.organization_id', 'o.name as organization_name', 'u.created_at'])
    .orderBy(orgKey)
    .orderBy('u.email')
    .limit(limit + 1);
  if (cursor) {
    const [orgName, email] = decodeCursor(cursor, userPlaceSchema);
    page = page.where(sql<boolean>`(${orgKey}, u.email) > (${orgName}, ${email})`);
  }
  const { items: users, next_cursor } = pageOf(await page.execute(), limit, (u) => [u.organization_name ?? '', u.email]);

  const usage =
    users.length === 0
      ? []
      : await db
          .selectFrom('ai_calls')
          .select((eb) => [
            'user_id',
            eb.fn.countAll<number | string>().as('calls'),
            eb.fn.count<number | string>('id').filterWhere('outcome', '=', 'ok').as('successful_calls'),
            eb.fn.sum<number | string>('input_tokens').as('input_tokens'),
            eb.fn.sum<number | string>('output_tokens').as('output_tokens'),
            eb.fn.max('created_at').as('last_call_at'),
          ])
          .where(
            'user_id',
            'in',
            users.map((u) => u.id),
          )
          .groupBy('user_id')
          .execute();
  const usageOf = new Map(usage.map((u) => [u.user_id, u]));

  const organizations: UserList['organizations'] = [];
  for (const u of users) {
    const used = usageOf.get(u.id);
    let group = organizations.at(-1);
    if (!group || group.organization_id !== u.organization_id) {
      group = { organization_id: u.organization_id, organization_name: u.organization_name, users: [] };
      organizations.push(group);
    }
    group.users.push({
      user_id: u.id,
      email: u.email,
      display_name: u.display_name,
      role: u.role,
      created_at: isoTime(u.created_at)!,
      ai_usage: {
        calls: Number(used?.calls ?? 0),
        successful_calls: Number(used?.successful_calls ?? 0),
        input_tokens: Number(used?.input_tokens ?? 0),
        output_tokens: Number(used?.output_tokens ?? 0),
        last_call_at: isoTime(used?.last_call_at),
      },
    });
  }
  return { organizations, next_cursor };
};
