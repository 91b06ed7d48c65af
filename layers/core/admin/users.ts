/**
 * Users of every organization for administrators, each with their AI usage from the ledger
 * (`ai_calls`: one row per model attempt made on the user's behalf — analyses and their quality
 * checks). Ordered by email; pages of `limit` users, the next page after the last email.
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '../db/schema';
import { isoTime } from '../db/values';
import { parseWith } from '../http/route';

export const USER_LIST = { defaultLimit: 50, maxLimit: 200 } as const;
const LIMIT = `must be a whole number from 1 to ${USER_LIST.maxLimit}`;

export const usersQuerySchema = z.strictObject({
  limit: z.coerce.number({ error: LIMIT }).int(LIMIT).min(1, LIMIT).max(USER_LIST.maxLimit, LIMIT).default(USER_LIST.defaultLimit),
  after: z.string().min(1, 'must be the next_after of the previous page').max(320).optional(),
});

export const usersSchema = z.object({
  users: z.array(z.object({
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: z.enum(['admin', 'investigator']),
    organization_id: z.string(),
    organization_name: z.string(),
    created_at: z.iso.datetime(),
    ai_usage: z.object({
      calls: z.number().int().describe('the AI usage count: every ledger row of the user (all outcomes)'),
      successful_calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      last_call_at: z.iso.datetime().nullable(),
    }),
  })),
  next_after: z.string().nullable().describe('pass as `after` for the next page; null on the last page'),
});

export type UserList = z.infer<typeof usersSchema>;

export const listUsers = async (db: Kysely<Database>, query: unknown): Promise<UserList> => {
  const { limit, after } = parseWith(usersQuerySchema, query);
  let page = db.selectFrom('users as u').innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.display_name', 'u.role', 'u.organization_id', 'o.name as organization_name', 'u.created_at'])
    .orderBy('u.email').limit(limit + 1);
  if (after) page = page.where('u.email', '>', after);
  const rows = await page.execute();
  const users = rows.slice(0, limit);

  const usage = users.length === 0 ? [] : await db.selectFrom('ai_calls')
    .select((eb) => [
      'user_id',
      eb.fn.countAll<number | string>().as('calls'),
      eb.fn.count<number | string>('id').filterWhere('outcome', '=', 'ok').as('successful_calls'),
      eb.fn.sum<number | string>('input_tokens').as('input_tokens'),
      eb.fn.sum<number | string>('output_tokens').as('output_tokens'),
      eb.fn.max('created_at').as('last_call_at'),
    ])
    .where('user_id', 'in', users.map((u) => u.id)).groupBy('user_id').execute();
  const usageOf = new Map(usage.map((u) => [u.user_id, u]));

  return {
    users: users.map((u) => {
      const used = usageOf.get(u.id);
      return {
        user_id: u.id,
        email: u.email,
        display_name: u.display_name,
        role: u.role,
        organization_id: u.organization_id,
        organization_name: u.organization_name,
        created_at: isoTime(u.created_at)!,
        ai_usage: {
          calls: Number(used?.calls ?? 0),
          successful_calls: Number(used?.successful_calls ?? 0),
          input_tokens: Number(used?.input_tokens ?? 0),
          output_tokens: Number(used?.output_tokens ?? 0),
          last_call_at: isoTime(used?.last_call_at),
        },
      };
    }),
    next_after: rows.length > limit ? users[users.length - 1]!.email : null,
  };
};
