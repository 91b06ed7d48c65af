/**
 * Prompt template versions for administrators (SPEC part 7): the history of a type (pages of up to 20
 * versions, newest first), one version in full with a side-by-side diff against the current version, a new
 * version, a rollback (a NEW version holding an old one's content — nothing is ever overwritten or
 * deleted), and switching a type off and on.
 *
 * The current version is what generation uses (`activeTemplate`): the newest active one; when the type
 * is deactivated, the newest one. Activation is switched per type: `PATCH { is_active }` sets every
 * version of the type, and a version created while the type is off is stored off too, so creating or
 * restoring content never switches a deactivated type back on by surprise.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { lockForTransaction } from '#core/db/transaction-state';
import { isoTime } from '#core/db/values';
import { conflict, notFound, validationFailed } from '#core/errors';
import { decodeCursor, nextCursorSchema, pageOf, pageQueryShape } from '#core/pagination';
import { auditedWrite, type AdminActor } from './audit-trail';
import { changeInWords, countRows, sideBySide } from './diff';
import { isPromptType, previewOf, PROMPT_TYPES, templateProblems } from './prompt-rules';
import { ifUsed } from '#core/if-used';

/** SPEC "Prompt version list length" */
export const HISTORY_LIMIT = 20;
/** A version's place in the history: its number. */
const versionPlaceSchema = /* @__PURE__ */ ifUsed(() => z.tuple([z.number().int().min(1)]));
const MAX_TEMPLATE_CHARS = 20_000;
const MAX_VERSION = 2_147_483_647; // the column is an int

const promptType = /* @__PURE__ */ ifUsed(() => z.enum(PROMPT_TYPES, { error: `must be one of ${PROMPT_TYPES.join(', ')}` }));
const versionNumber = /* @__PURE__ */ ifUsed(() =>
  z
    .number({ error: 'must be a whole version number from 1' })
    .int('must be a whole version number from 1')
    .min(1, 'must be a whole version number from 1')
    .max(MAX_VERSION, 'is out of range'),
);
const templateText = (name: string) =>
  z
    .string({ error: `${name} is required (text)` })
    .refine((s) => s.trim().length > 0, `${name} must not be blank`)
    .refine((s) => s.length <= MAX_TEMPLATE_CHARS, `${name} must be at most ${MAX_TEMPLATE_CHARS} characters`);

export const historyQuerySchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject(
    {
      prompt_type: promptType,
      // a query value is text: only digits are a version ("1.5", "2abc", "" and "0" are not)
      version: z
        .string()
        .regex(/^[1-9]\d*$/, 'must be a whole version number from 1')
        .transform(Number)
        .pipe(versionNumber)
        .optional(),
      ...pageQueryShape({ defaultLimit: HISTORY_LIMIT, maxLimit: HISTORY_LIMIT }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown query parameter(s): ${issue.keys.join(', ')}; use prompt_type, version, limit and cursor`
          : undefined,
    },
  ),
);

export const createBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    prompt_type: promptType,
    system_prompt: templateText('system_prompt'),
    user_prompt_template: templateText('user_prompt_template'),
    change_note: z
      .string({ error: 'change_note must be text' })
      .trim()
      .max(500, 'change_note is at most 500 characters')
      .optional()
      .describe('what this version changes, in a sentence: shown on its card'),
  }),
);

export const rollbackBodySchema = /* @__PURE__ */ ifUsed(() => z.strictObject({ prompt_type: promptType, version: versionNumber }));

export const activationBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({ is_active: z.boolean({ error: 'is_active must be true or false' }) }),
);
/** Any text (an unknown type is a 404, not a 400), which still keeps the string rule. */
export const activationParamsSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    prompt_type: z.string({ error: 'the prompt type is required' }).describe(`one of ${PROMPT_TYPES.join(', ')}; another is a 404`),
  }),
);

const createdBySchema = /* @__PURE__ */ ifUsed(() =>
  z.object({ user_id: z.string(), email: z.string(), display_name: z.string() }).nullable(),
);
const versionMeta = {
  version: z.number().int(),
  is_active: z.boolean(),
  is_current: z.boolean(),
  restored_from_version: z.number().int().nullable().describe('set on a rollback: the version whose content this one restored'),
  change_note: z.string().nullable().describe('what the administrator who made it says it changes'),
  created_at: z.iso.datetime(),
  created_by: createdBySchema,
};
const diffRowSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    kind: z.enum(['same', 'changed', 'removed', 'added']),
    left_line_no: z.number().int().nullable(),
    left: z.string().nullable(),
    right_line_no: z.number().int().nullable(),
    right: z.string().nullable(),
  }),
);
const diffCountsSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    same: z.number().int(),
    changed: z.number().int(),
    removed: z.number().int(),
    added: z.number().int(),
  }),
);

export const versionSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    prompt_type: z.string(),
    ...versionMeta,
    system_prompt: z.string(),
    user_prompt_template: z.string(),
  }),
);

export const historyListSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    prompt_type: z.string(),
    is_active: z.boolean().describe('false when the type is deactivated: analyses of it are refused'),
    current_version: z.number().int().nullable(),
    latest_version: z.number().int().nullable(),
    total_versions: z.number().int(),
    versions: z
      .array(
        z.object({
          ...versionMeta,
          preview: z.string().describe('the start of the user prompt template, whitespace collapsed'),
          system_prompt_chars: z.number().int(),
          user_prompt_template_chars: z.number().int(),
          change: z
            .object({
              from_version: z.number().int(),
              lines_changed: z.number().int().describe('lines changed, added or removed, in the system prompt and the template together'),
              first_change: z.string().nullable().describe('the first changed or added line of this version, whitespace collapsed'),
            })
            .nullable()
            .describe('what this version changed against the version before it; null for the first version'),
        }),
      )
      .describe('newest first'),
    next_cursor: nextCursorSchema,
  }),
);

export const versionDetailSchema = /* @__PURE__ */ ifUsed(() =>
  versionSchema.extend({
    current_version: z.number().int(),
    diff: z.object({
      left_version: z.number().int().describe('the version asked for (left column)'),
      right_version: z.number().int().describe('the current version (right column)'),
      identical: z.boolean(),
      counts: z.object({ system_prompt: diffCountsSchema, user_prompt_template: diffCountsSchema }),
      system_prompt: z.array(diffRowSchema),
      user_prompt_template: z.array(diffRowSchema),
    }),
  }),
);

export const activationSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    prompt_type: z.string(),
    is_active: z.boolean(),
    changed: z.boolean().describe('false when the type was already in that state'),
    current_version: z.number().int(),
  }),
);

export type PromptVersion = z.infer<typeof versionSchema>;
type Db = Kysely<Database> | Transaction<Database>;

interface TypeState {
  total: number;
  latest: number | null;
  current: number | null;
  active: boolean;
}

const typeState = async (db: Db, type: string): Promise<TypeState> => {
  const {
    rows: [row],
  } = await sql<{ total: number | string; latest: number | null; newest_active: number | null }>`
    select count(*) as total, max(version) as latest, max(version) filter (where is_active) as newest_active
    from prompt_templates where prompt_type = ${type}`.execute(db);
  const total = Number(row?.total ?? 0);
  const active = row?.newest_active ?? null;
  return { total, latest: row?.latest ?? null, current: active ?? row?.latest ?? null, active: active !== null };
};

const versionRows = (db: Db, type: string) =>
  db
    .selectFrom('prompt_templates as p')
    .leftJoin('users as u', 'u.id', 'p.created_by')
    .select([
      'p.prompt_type',
      'p.version',
      'p.is_active',
      'p.restored_from_version',
      'p.change_note',
      'p.created_at',
      'p.system_prompt',
      'p.user_prompt_template',
      'p.created_by',
      'u.email',
      'u.display_name',
    ])
    .where('p.prompt_type', '=', type);

type VersionRow = Awaited<ReturnType<ReturnType<typeof versionRows>['executeTakeFirstOrThrow']>>;

const toVersion = (row: VersionRow, current: number | null): PromptVersion => ({
  prompt_type: row.prompt_type,
  version: row.version,
  is_active: row.is_active,
  is_current: row.version === current,
  restored_from_version: row.restored_from_version,
  change_note: row.change_note,
  created_at: isoTime(row.created_at)!,
  created_by: row.created_by && row.email ? { user_id: row.created_by, email: row.email, display_name: row.display_name ?? '' } : null,
  system_prompt: row.system_prompt,
  user_prompt_template: row.user_prompt_template,
});

const findVersion = async (db: Db, type: string, version: number, state: TypeState): Promise<VersionRow> => {
  const row = await versionRows(db, type).where('p.version', '=', version).executeTakeFirst();
  if (!row) {
    const range = state.latest ? `it has versions 1 to ${state.latest}` : 'it has no versions';
    throw notFound(`Version ${version} of ${type} (${range})`);
  }
  return row;
};

/** What `row` changed against `before`: its lines changed, added or removed, and the first change in words. */
const changeAgainst = (before: VersionRow, row: VersionRow) => {
  const diffs = [sideBySide(before.system_prompt, row.system_prompt), sideBySide(before.user_prompt_template, row.user_prompt_template)];
  const touched = diffs.flat().filter((d) => d.kind !== 'same');
  const first = touched[0];
  return { from_version: before.version, lines_changed: touched.length, first_change: first ? previewOf(changeInWords(first)) : null };
};

/** GET /api/admin/prompts/history: the list, or with `version` that version in full and its diff. */
export const promptHistory = async (
  db: Kysely<Database>,
  { prompt_type: type, version, limit, cursor }: z.output<typeof historyQuerySchema>,
) => {
  const state = await typeState(db, type);
  if (version !== undefined) return versionDetail(db, type, version, state);
  let page = versionRows(db, type);
  if (cursor) page = page.where('p.version', '<', decodeCursor(cursor, versionPlaceSchema)[0]);
  // one row past the page's look-ahead: the version before the page's oldest, which that one's change is against
  const read = await page
    .orderBy('p.version', 'desc')
    .limit(limit + 2)
    .execute();
  const { items: rows, next_cursor } = pageOf(read, limit, (row) => [row.version]);
  return {
    prompt_type: type,
    is_active: state.active,
    current_version: state.current,
    latest_version: state.latest,
    total_versions: state.total,
    versions: rows.map((row, i) => {
      const { prompt_type: _type, system_prompt, user_prompt_template, ...meta } = toVersion(row, state.current);
      const before = read[i + 1];
      return {
        ...meta,
        preview: previewOf(user_prompt_template),
        system_prompt_chars: system_prompt.length,
        user_prompt_template_chars: user_prompt_template.length,
        change: before ? changeAgainst(before, row) : null,
      };
    }),
    next_cursor,
  } satisfies z.infer<typeof historyListSchema>;
};

const versionDetail = async (db: Kysely<Database>, type: string, version: number, state: TypeState) => {
  const row = await findVersion(db, type, version, state);
  const current = state.current === version ? row : await findVersion(db, type, state.current!, state);
  const system = sideBySide(row.system_prompt, current.system_prompt);
  const user = sideBySide(row.user_prompt_template, current.user_prompt_template);
  return {
    ...toVersion(row, state.current),
    current_version: current.version,
    diff: {
      left_version: row.version,
      right_version: current.version,
      identical: row.system_prompt === current.system_prompt && row.user_prompt_template === current.user_prompt_template,
      counts: { system_prompt: countRows(system), user_prompt_template: countRows(user) },
      system_prompt: system,
      user_prompt_template: user,
    },
  } satisfies z.infer<typeof versionDetailSchema>;
};

/** One type's writes at a time, so two admins never compute the same next version number. */
const lockType = (trx: Transaction<Database>, type: string) => lockForTransaction(trx, sql`hashtext(${`prompt-templates:${type}`})`);

/** Stores the next version of a type; refused when it would only repeat the current version. */
const insertVersion = async (
  trx: Transaction<Database>,
  actor: AdminActor,
  type: string,
  content: { system_prompt: string; user_prompt_template: string; change_note?: string | undefined },
  restoredFrom: number | null,
): Promise<PromptVersion> => {
  const state = await typeState(trx, type);
  if (state.current !== null) {
    const current = await findVersion(trx, type, state.current, state);
    if (current.system_prompt === content.system_prompt && current.user_prompt_template === content.user_prompt_template) {
      throw conflict(`The current version ${state.current} of ${type} already has this content; no version was created.`, {
        current_version: state.current,
      });
    }
  }
  const version = (state.latest ?? 0) + 1;
  await trx
    .insertInto('prompt_templates')
    .values({
      prompt_type: type,
      version,
      system_prompt: content.system_prompt,
      user_prompt_template: content.user_prompt_template,
      change_note: content.change_note || null,
      is_active: state.total === 0 || state.active,
      restored_from_version: restoredFrom,
      created_by: actor.userId,
    })
    .execute();
  const after = await typeState(trx, type);
  return toVersion(await findVersion(trx, type, version, after), after.current);
};

/** The audit target of a prompt write, when the request names a known type (a refused request's too). */
export const promptTarget = (type: unknown): string | null => (typeof type === 'string' && isPromptType(type) ? `prompt:${type}` : null);

/** The audit actions of the prompt writes. */
export const PROMPT_AUDIT = { create: 'admin.prompt.create', rollback: 'admin.prompt.rollback', update: 'admin.prompt.update' } as const;

/** Where a version is read (the Location of a created one): the history route with its number. */
export const versionLocation = (version: Pick<PromptVersion, 'prompt_type' | 'version'>) =>
  `/api/admin/prompts/history?prompt_type=${version.prompt_type}&version=${version.version}`;

/** POST /api/admin/prompts: a new version, checked against the placeholders its type is rendered with. */
export const createPromptVersion = (
  db: Kysely<Database>,
  actor: AdminActor,
  input: z.output<typeof createBodySchema>,
): Promise<PromptVersion> =>
  auditedWrite(db, actor, { action: PROMPT_AUDIT.create, target: promptTarget(input.prompt_type) }, async () => {
    const problems = templateProblems(input.prompt_type, input);
    if (problems.length > 0) throw validationFailed(problems);
    const created = await db.transaction().execute(async (trx) => {
      await lockType(trx, input.prompt_type);
      return insertVersion(trx, actor, input.prompt_type, input, null);
    });
    return { result: created, detail: { version: created.version, is_active: created.is_active } };
  });

/**
 * POST /api/admin/prompts/history: restores version N's content as a new version (`restored_from_version`
 * N). The old content is not re-checked against today's placeholder rules: it was accepted once, and a
 * rollback is how an administrator gets back to known-good content.
 */
export const rollbackPrompt = (
  db: Kysely<Database>,
  actor: AdminActor,
  input: z.output<typeof rollbackBodySchema>,
): Promise<PromptVersion> =>
  auditedWrite(db, actor, { action: PROMPT_AUDIT.rollback, target: promptTarget(input.prompt_type) }, async () => {
    const created = await db.transaction().execute(async (trx) => {
      await lockType(trx, input.prompt_type);
      const source = await findVersion(trx, input.prompt_type, input.version, await typeState(trx, input.prompt_type));
      return insertVersion(
        trx,
        actor,
        input.prompt_type,
        { system_prompt: source.system_prompt, user_prompt_template: source.user_prompt_template },
        source.version,
      );
    });
    return { result: created, detail: { version: created.version, restored_from_version: input.version } };
  });

/** PATCH /api/admin/prompts/{prompt_type}: `{ is_active: false }` stops analyses of the type; `true` resumes them. */
export const setPromptActive = (
  db: Kysely<Database>,
  actor: AdminActor,
  type: string,
  { is_active }: z.output<typeof activationBodySchema>,
) =>
  auditedWrite(db, actor, { action: PROMPT_AUDIT.update, target: promptTarget(type) }, async () => {
    if (!isPromptType(type)) throw notFound(`The prompt type '${type}'`);
    const result = await db.transaction().execute(async (trx) => {
      await lockType(trx, type);
      const before = await typeState(trx, type);
      if (before.total === 0) throw conflict(`${type} has no versions to switch; create one first.`);
      const updated = await trx
        .updateTable('prompt_templates')
        .set({ is_active })
        .where('prompt_type', '=', type)
        .where('is_active', '!=', is_active)
        .executeTakeFirst();
      const after = await typeState(trx, type);
      return { prompt_type: type, is_active, changed: Number(updated.numUpdatedRows) > 0, current_version: after.current! };
    });
    return { result, detail: { is_active, changed: result.changed, current_version: result.current_version } };
  });
