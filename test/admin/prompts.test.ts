/**
 * Prompt template versions on the database: the rollback acceptance case (versions 1..4, roll back
 * to 1 → version 5 holds 1's content, 1..4 unchanged, listed first), the history list and one version
 * with its diff, creating versions (placeholder checks, no duplicate of the current content, concurrent
 * creates), deactivation as generation sees it, and bad input that changes nothing. Every write, the
 * refused ones included, leaves an audit row with the admin's user id.
 */
import { auditRefusedWrite, fieldOf, type AdminActor } from '#core/admin/audit-trail';
import { adminPromptCreateRoute, adminPromptHistoryRoute, adminPromptRollbackRoute, adminPromptUpdateRoute } from '#core/admin/contract';
import {
  createPromptVersion,
  HISTORY_LIMIT,
  PROMPT_AUDIT,
  promptHistory,
  promptTarget,
  rollbackPrompt,
  setPromptActive,
} from '#core/admin/prompts';
import type { RouteContract } from '#core/contract';
import type { RouteAnswer, RouteInput } from '#core/http/route';
import { activeTemplate } from '#core/analysis/prompts';
import { jsonColumn } from '#core/db/values';
import { INITIAL_TEMPLATES } from '#core/db/migrations/0003-prompt-templates';
import { useTestDatabase } from '../support/db';
import { routeCall, RouteRefusal, type RouteRequestParts } from '../support/route-call';

const db = useTestDatabase();
let actor: AdminActor;

beforeAll(async () => {
  const user = await db
    .insertInto('users')
    .values({
      organization_id: null,
      idp_subject: 'prompt-admin',
      email: 'prompt-admin@example.test',
      display_name: 'Pat Prompt',
      role: 'admin',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  actor = { userId: user.id, subject: 'prompt-admin', organizationId: null };
});

const versionsOf = (type: string) =>
  db.selectFrom('prompt_templates').selectAll().where('prompt_type', '=', type).orderBy('version').execute();
const auditRows = (action: string) => db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

/** The error an admin call is refused with (status, code, details). */
const refusal = async (run: Promise<unknown>) => {
  try {
    await run;
  } catch (error) {
    if (error instanceof RouteRefusal) return { status: error.status, code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected the call to be refused');
};

/** An administrator's request through the real route, with the deployed handler's refusal audit, on this file's database. */
const viaRoute = <C extends RouteContract>(
  contract: C,
  run: (input: RouteInput<C>) => Promise<RouteAnswer<C>['body']>,
  action: string,
  target: (content: unknown, params: Record<string, string | undefined>) => string | null,
) => {
  const call = routeCall(contract, run, {
    refused: auditRefusedWrite(
      action,
      ({ content, event }) => target(content, event.pathParameters ?? {}),
      async () => db,
    ),
  });
  return (request: RouteRequestParts) => call({ ...request, claims: { sub: 'prompt-admin', 'cognito:groups': '[admin]' } });
};
const bodyTarget = (content: unknown) => promptTarget(fieldOf(content, 'prompt_type'));
const createVia = viaRoute(adminPromptCreateRoute, ({ body }) => createPromptVersion(db, actor, body), PROMPT_AUDIT.create, bodyTarget);
const rollbackVia = viaRoute(adminPromptRollbackRoute, ({ body }) => rollbackPrompt(db, actor, body), PROMPT_AUDIT.rollback, bodyTarget);
const updateVia = viaRoute(
  adminPromptUpdateRoute,
  ({ params, body }) => setPromptActive(db, actor, params.prompt_type, body),
  PROMPT_AUDIT.update,
  (_, params) => promptTarget(params.prompt_type),
);
const historyVia = viaRoute(
  adminPromptHistoryRoute,
  ({ query }) => promptHistory(db, query),
  'admin.prompt.history',
  () => null,
);
const create = (body: unknown) => createVia({ body });
const rollback = (body: unknown) => rollbackVia({ body });
const setActive = (type: string | undefined, body: unknown) => updateVia({ params: { prompt_type: type }, body });
const history = (query: Record<string, string | null | undefined>) =>
  historyVia({
    query: Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
  });

/** A valid new content for an analysis type: the seeded template with a marker line. */
const content = (type: string, marker: string) => {
  const seeded = INITIAL_TEMPLATES[type]!;
  return { prompt_type: type, system_prompt: `${seeded.system}\n${marker}`, user_prompt_template: `${marker}\n${seeded.user}` };
};

describe('rollback (acceptance)', () => {
  const TYPE = 'analysis_gap';

  // versions 1 and 2 are the migrations' (0003, 0010)
  test('versions 1..4, roll back to 1 → version 5 equals 1, versions 1..4 unchanged, the list shows 5 first', async () => {
    await create(content(TYPE, 'third'));
    await create(content(TYPE, 'fourth'));
    const before = await versionsOf(TYPE);
    expect(before.map((v) => v.version)).toEqual([1, 2, 3, 4]);

    const restored = await rollback({ prompt_type: TYPE, version: 1 });
    expect(restored).toMatchObject({ prompt_type: TYPE, version: 5, restored_from_version: 1, is_current: true, is_active: true });
    expect(restored.created_by).toEqual({ user_id: actor.userId, email: 'prompt-admin@example.test', display_name: 'Pat Prompt' });

    const after = await versionsOf(TYPE);
    expect(after.slice(0, 4)).toEqual(before); // history untouched, row for row
    expect(after[4]).toMatchObject({
      version: 5,
      system_prompt: before[0]!.system_prompt,
      user_prompt_template: before[0]!.user_prompt_template,
      restored_from_version: 1,
    });

    const list = await history({ prompt_type: TYPE });
    expect('versions' in list && list.versions.map((v) => [v.version, v.is_current, v.restored_from_version])).toEqual([
      [5, true, 1],
      [4, false, null],
      [3, false, null],
      [2, false, null],
      [1, false, null],
    ]);
    // generation now uses version 5, i.e. version 1's content
    expect(await activeTemplate(db, TYPE)).toMatchObject({ version: 5, system_prompt: INITIAL_TEMPLATES[TYPE]!.system });

    const [audit] = await auditRows('admin.prompt.rollback');
    expect(audit).toMatchObject({
      outcome: 'success',
      actor_user_id: actor.userId,
      organization_id: actor.organizationId,
      target: `prompt:${TYPE}`,
    });
    expect(jsonColumn(audit!.detail)).toMatchObject({ version: 5, restored_from_version: 1, actor_subject: 'prompt-admin' });
  });

  test('restoring what the current version already holds is a 409 and creates nothing', async () => {
    const count = (await versionsOf(TYPE)).length;
    expect(await refusal(rollback({ prompt_type: TYPE, version: 1 }))).toMatchObject({
      status: 409,
      message: expect.stringContaining('current version 5'),
    });
    expect(await versionsOf(TYPE)).toHaveLength(count);
    expect((await auditRows('admin.prompt.rollback')).at(-1)).toMatchObject({ outcome: 'failure' });
  });
});

describe('history list and one version with its diff', () => {
  const TYPE = 'analysis_error_check';

  test('the list holds at most 20 versions, newest first, with previews but not the full text', async () => {
    // after the migrations' versions 1 and 2
    for (let i = 3; i <= HISTORY_LIMIT + 3; i++) await create(content(TYPE, `edition ${i}`));
    const list = await history({ prompt_type: TYPE });
    if (!('versions' in list)) throw new Error('expected the list');
    expect(list).toMatchObject({ prompt_type: TYPE, is_active: true, current_version: 23, latest_version: 23, total_versions: 23 });
    expect(list.versions.map((v) => v.version)).toEqual(Array.from({ length: HISTORY_LIMIT }, (_, i) => 23 - i));
    expect(list.versions[0]).toMatchObject({
      preview: expect.stringMatching(/^edition 23 Investigation:/),
      created_by: { user_id: actor.userId },
    });
    expect(list.versions[0]).not.toHaveProperty('system_prompt');
    expect(list.versions[0]!.user_prompt_template_chars).toBe(content(TYPE, 'edition 23').user_prompt_template.length);

    // older versions: the next page, from next_cursor, until it is null
    const older = await history({ prompt_type: TYPE, cursor: list.next_cursor });
    if (!('versions' in older)) throw new Error('expected the list');
    expect(older.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(older.next_cursor).toBeNull();
    const small = await history({ prompt_type: TYPE, limit: '5' });
    expect('versions' in small && small.versions.map((v) => v.version)).toEqual([23, 22, 21, 20, 19]);
    await expect(history({ prompt_type: TYPE, limit: '21' })).rejects.toMatchObject({ status: 400 });
    await expect(history({ prompt_type: TYPE, cursor: 'bogus' })).rejects.toMatchObject({ status: 400 });
  });

  test('?version=N: the full texts, and a line diff against the current version (left N, right current)', async () => {
    const detail = await history({ prompt_type: TYPE, version: '1' });
    if (!('diff' in detail)) throw new Error('expected one version');
    expect(detail).toMatchObject({
      prompt_type: TYPE,
      version: 1,
      is_current: false,
      current_version: 23,
      created_by: null,
      system_prompt: INITIAL_TEMPLATES[TYPE]!.system,
      user_prompt_template: INITIAL_TEMPLATES[TYPE]!.user,
    });
    expect(detail.diff).toMatchObject({ left_version: 1, right_version: 23, identical: false });
    expect(detail.diff.counts.system_prompt).toMatchObject({ added: 1, removed: 0, changed: 0 });
    expect(detail.diff.system_prompt.at(-1)).toEqual({
      kind: 'added',
      left_line_no: null,
      left: null,
      right_line_no: detail.diff.system_prompt.length,
      right: 'edition 23',
    });
    expect(detail.diff.user_prompt_template[0]).toMatchObject({ kind: 'added', right: 'edition 23' });

    const near = await history({ prompt_type: TYPE, version: '22' });
    if (!('diff' in near)) throw new Error('expected one version');
    expect(near.diff.system_prompt.filter((r) => r.kind !== 'same')).toEqual([
      expect.objectContaining({ kind: 'changed', left: 'edition 22', right: 'edition 23' }),
    ]);

    const current = await history({ prompt_type: TYPE, version: '23' });
    if (!('diff' in current)) throw new Error('expected one version');
    expect(current.diff.identical).toBe(true);
    expect(current.diff.user_prompt_template.every((r) => r.kind === 'same')).toBe(true);
  });

  test.each([
    [{ prompt_type: 'analysis_timeline' }, 400, 'prompt_type'],
    [{}, 400, 'prompt_type'],
    [{ prompt_type: TYPE, version: 'abc' }, 400, 'version'],
    [{ prompt_type: TYPE, version: '1.5' }, 400, 'version'],
    [{ prompt_type: TYPE, version: '0' }, 400, 'version'],
    [{ prompt_type: TYPE, version: '' }, 400, 'version'],
    [{ prompt_type: TYPE, version: '99999999999' }, 400, 'version'],
    [{ prompt_type: TYPE, versoin: '2' }, 400, ''],
  ])('bad query %j → %d naming %s', async (query, status, path) => {
    const refused = await refusal(history(query));
    expect(refused).toMatchObject({ status, code: 'validation_failed' });
    expect(refused.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  test('a version beyond the latest is a 404 that says which versions exist', async () => {
    expect(await refusal(history({ prompt_type: TYPE, version: '24' }))).toMatchObject({
      status: 404,
      message: expect.stringContaining('it has versions 1 to 23'),
    });
  });
});

describe('creating versions', () => {
  const TYPE = 'analysis_question';

  test('a valid version becomes current at once, stored with its author, and audited', async () => {
    const created = await create({ ...content(TYPE, 'be brief'), change_note: '  Briefer answers.  ' });
    expect(created).toMatchObject({
      prompt_type: TYPE,
      version: 3,
      is_active: true,
      is_current: true,
      restored_from_version: null,
      change_note: 'Briefer answers.',
    });
    expect(await activeTemplate(db, TYPE)).toMatchObject({
      version: 3,
      user_prompt_template: content(TYPE, 'be brief').user_prompt_template,
    });
    const audit = (await auditRows('admin.prompt.create')).at(-1)!;
    expect(audit).toMatchObject({ outcome: 'success', actor_user_id: actor.userId, target: `prompt:${TYPE}` });
    expect(jsonColumn(audit.detail)).toMatchObject({ version: 3, is_active: true });
  });

  test.each([
    ['unknown prompt type', { ...content(TYPE, 'x'), prompt_type: 'analysis_timeline' }, 'prompt_type'],
    ['missing user template', { prompt_type: TYPE, system_prompt: 'x' }, 'user_prompt_template'],
    ['blank system prompt', { ...content(TYPE, 'x'), system_prompt: '   ' }, 'system_prompt'],
    [
      'misspelt placeholder',
      { ...content(TYPE, 'x'), user_prompt_template: content(TYPE, 'x').user_prompt_template.replace('{{question}}', '{{questoin}}') },
      'user_prompt_template',
    ],
    [
      'no evidence placeholder',
      { ...content(TYPE, 'x'), user_prompt_template: 'Question: {{question}}{{regeneration}}' },
      'user_prompt_template',
    ],
    ['too long', { ...content(TYPE, 'x'), system_prompt: 'x'.repeat(20_001) }, 'system_prompt'],
    ['unknown field', { ...content(TYPE, 'x'), is_active: false }, ''],
    ['change note too long', { ...content(TYPE, 'x'), change_note: 'x'.repeat(501) }, 'change_note'],
    ['not an object', 'hello', ''],
  ])('%s → 400 naming the field, nothing stored, a failure audited', async (_, body, path) => {
    const before = await db.selectFrom('prompt_templates').select(['prompt_type', 'version']).execute();
    const audits = (await auditRows('admin.prompt.create')).length;
    const refused = await refusal(create(body));
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(refused.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(await db.selectFrom('prompt_templates').select(['prompt_type', 'version']).execute()).toEqual(before);
    const audit = await auditRows('admin.prompt.create');
    expect(audit).toHaveLength(audits + 1);
    expect(audit.at(-1)).toMatchObject({ outcome: 'failure', actor_user_id: actor.userId });
    expect(jsonColumn<{ error: { code: string } }>(audit.at(-1)!.detail)!.error.code).toBe('validation_failed');
  });

  test('a version identical to the current one is a 409', async () => {
    expect(await refusal(create(content(TYPE, 'be brief')))).toMatchObject({ status: 409 });
    expect((await versionsOf(TYPE)).map((v) => v.version)).toEqual([1, 2, 3]);
  });

  test('concurrent creates get distinct, consecutive version numbers', async () => {
    const created = await Promise.all([1, 2, 3, 4].map((i) => create(content(TYPE, `parallel ${i}`))));
    expect(created.map((c) => c.version).sort()).toEqual([4, 5, 6, 7]);
  });
});

describe('deactivating a type', () => {
  const TYPE = 'analysis_topic';

  // the 409 that POST /api/analysis answers while a type is off: test/analysis/assess.test.ts
  test('is_active false stops generation of the type with a clear message; true resumes it with the newest version', async () => {
    await create(content(TYPE, 'v3'));
    const off = await setActive(TYPE, { is_active: false });
    expect(off).toEqual({ prompt_type: TYPE, is_active: false, changed: true, current_version: 3 });
    expect((await versionsOf(TYPE)).map((v) => v.is_active)).toEqual([false, false, false]);

    await expect(activeTemplate(db, TYPE)).rejects.toThrow(/analysis_topic is deactivated/);
    // other types are unaffected
    await expect(activeTemplate(db, 'analysis_summary')).resolves.toMatchObject({ prompt_type: 'analysis_summary' });

    const list = await history({ prompt_type: TYPE });
    expect(list).toMatchObject({ is_active: false, current_version: 3 });

    // a version created while the type is off stays off: creating content never re-enables generation
    const draft = await create(content(TYPE, 'v4 draft'));
    expect(draft).toMatchObject({ version: 4, is_active: false, is_current: true });
    await expect(activeTemplate(db, TYPE)).rejects.toThrow(/deactivated/);

    expect(await setActive(TYPE, { is_active: false })).toMatchObject({ changed: false });
    expect(await setActive(TYPE, { is_active: true })).toEqual({ prompt_type: TYPE, is_active: true, changed: true, current_version: 4 });
    expect(await activeTemplate(db, TYPE)).toMatchObject({ version: 4 });

    const audits = await auditRows('admin.prompt.update');
    expect(audits.map((a) => [a.outcome, jsonColumn<{ is_active: boolean; changed: boolean }>(a.detail)])).toEqual([
      ['success', expect.objectContaining({ is_active: false, changed: true })],
      ['success', expect.objectContaining({ is_active: false, changed: false })],
      ['success', expect.objectContaining({ is_active: true, changed: true })],
    ]);
  });

  test.each([
    ['unknown type', 404, 'analysis_timeline', { is_active: false }],
    ['no type', 400, undefined, { is_active: false }],
    ['a type with a NUL (the string rule)', 400, 'analysis_gap\u0000', { is_active: false }],
    ['is_active not a boolean', 400, TYPE, { is_active: 'false' }],
    ['missing is_active', 400, TYPE, {}],
    ['other fields', 400, TYPE, { is_active: false, version: 2 }],
  ])('%s → %d, nothing switched, a failure audited', async (_, status, type, body) => {
    const before = await db
      .selectFrom('prompt_templates')
      .select(['prompt_type', 'version', 'is_active'])
      .orderBy('prompt_type')
      .orderBy('version')
      .execute();
    expect(await refusal(setActive(type, body))).toMatchObject({ status });
    expect(
      await db
        .selectFrom('prompt_templates')
        .select(['prompt_type', 'version', 'is_active'])
        .orderBy('prompt_type')
        .orderBy('version')
        .execute(),
    ).toEqual(before);
    expect((await auditRows('admin.prompt.update')).at(-1)).toMatchObject({ outcome: 'failure' });
  });
});

describe('rollback input', () => {
  test.each([
    [{ prompt_type: 'analysis_summary', version: 9 }, 404],
    [{ prompt_type: 'analysis_summary', version: 0 }, 400],
    [{ prompt_type: 'analysis_summary', version: 1.5 }, 400],
    [{ prompt_type: 'analysis_summary', version: '1' }, 400],
    [{ prompt_type: 'analysis_summary' }, 400],
    [{ version: 1 }, 400],
    [{ prompt_type: 'nope', version: 1 }, 400],
  ])('%j → %d and nothing created', async (body, status) => {
    const before = await db.selectFrom('prompt_templates').select(['prompt_type', 'version']).execute();
    expect(await refusal(rollback(body))).toMatchObject({ status });
    expect(await db.selectFrom('prompt_templates').select(['prompt_type', 'version']).execute()).toEqual(before);
  });
});
