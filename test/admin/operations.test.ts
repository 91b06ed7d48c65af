/**
 * Settings, audit health and the user list on the database: no setting is modifiable and every
 * change attempt is audited; audit health groups recent audit_failures by action with the latest
 * error; users grouped by organization (operators first) carry their AI usage from the ledger, page by page.
 */
import type { AdminActor } from '#core/admin/audit-trail';
import { auditHealth } from '#core/admin/audit-health';
import { changeSettings, listSettings } from '#core/admin/settings';
import { listUsers } from '#core/admin/users';
import { adminAuditHealthRoute, adminSettingsPutRoute, adminUsersRoute } from '#core/admin/contract';
import { parseWith } from '#core/contract';
import { jsonColumn } from '#core/db/values';
import { DomainError } from '#core/errors';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
let actor: AdminActor;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const [alpha, beta] = await db
    .insertInto('organizations')
    .values([{ name: 'Alpha Org' }, { name: 'Beta Org' }])
    .returning(['id', 'name'])
    .execute();
  const users = await db
    .insertInto('users')
    .values([
      { organization_id: null, idp_subject: 's-admin', email: 'admin@ops.test', display_name: 'Ada Admin', role: 'admin' },
      { organization_id: alpha!.id, idp_subject: 's-ivy', email: 'ivy@alpha.test', display_name: 'Ivy', role: 'investigator' },
      { organization_id: beta!.id, idp_subject: 's-bo', email: 'bo@beta.test', display_name: 'Bo', role: 'investigator' },
    ])
    .returning(['id', 'email'])
    .execute();
  for (const u of users) ids[u.email] = u.id;
  actor = { userId: ids['admin@ops.test']!, subject: 's-admin', organizationId: null };
});

const refusal = async (run: Promise<unknown>) => {
  try {
    await run;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
};

describe('settings', () => {
  const audits = () => db.selectFrom('audit_log').selectAll().where('action', '=', 'admin.settings.update').orderBy('id').execute();

  test('the list is empty', () => {
    expect(listSettings()).toEqual({ settings: [] });
  });

  test('naming keys → 400 settings_not_modifiable listing each refused key; audited as a failure with the keys', async () => {
    const error = await refusal(changeSettings(db, actor, { settings: { ai_primary_region: 'eu-west-1', shedder_disabled: true } }));
    expect(error).toMatchObject({
      kind: 'invalid',
      code: 'settings_not_modifiable',
      details: { refused_keys: ['ai_primary_region', 'shedder_disabled'] },
    });
    expect(error.message).toContain('ai_primary_region, shedder_disabled');
    const [row] = await audits();
    expect(row).toMatchObject({
      outcome: 'failure',
      actor_user_id: actor.userId,
      organization_id: actor.organizationId,
      target: 'settings',
    });
    expect(jsonColumn(row!.detail)).toMatchObject({
      error: { code: 'settings_not_modifiable', details: { refused_keys: ['ai_primary_region', 'shedder_disabled'] } },
    });
    expect(listSettings()).toEqual({ settings: [] }); // nothing changed
  });

  test('an empty change is a no-op answering the list, audited as a success naming no keys', async () => {
    expect(await changeSettings(db, actor, { settings: {} })).toEqual({ settings: [] });
    const row = (await audits()).at(-1)!;
    expect(row.outcome).toBe('success');
    expect(jsonColumn(row.detail)).toMatchObject({ keys: [] });
  });

  test.each([
    ['no body', undefined],
    ['keys at the top level', { ai_primary_region: 'eu-west-1' }],
    ['settings not an object', { settings: ['a'] }],
  ])('%s → 400 validation_failed from the contract (the route audits it as a failure: admin.e2e.ts)', async (_, body) => {
    expect(await refusal((async () => changeSettings(db, actor, parseWith(adminSettingsPutRoute.body, body)))())).toMatchObject({
      kind: 'invalid',
      code: 'validation_failed',
    });
  });
});

describe('audit health', () => {
  const NOW = new Date('2026-05-01T12:00:00.000Z');
  const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

  test('healthy with no failures in the window', async () => {
    expect(await auditHealth(db, parseWith(adminAuditHealthRoute.query, {}), NOW)).toEqual({
      status: 'healthy',
      window_hours: 24,
      since: hoursAgo(24).toISOString(),
      checked_at: NOW.toISOString(),
      total_failures: 0,
      failing_actions: [],
    });
  });

  test('degraded: each failing action with its count in the window, rows written, and the latest error; old failures left out', async () => {
    await db
      .insertInto('audit_failures')
      .values([
        { action: 'auth.login_failed', error_message: 'old failure', created_at: hoursAgo(30) },
        { action: 'auth.login_failed', error_message: 'timeout 1', created_at: hoursAgo(5) },
        { action: 'auth.login_failed', error_message: 'timeout 2', created_at: hoursAgo(2) },
        { action: 'admin.prompt.create', error_message: 'disk full', created_at: hoursAgo(1) },
      ])
      .execute();
    await db
      .insertInto('audit_log')
      .values([
        { action: 'auth.login_failed', outcome: 'failure', created_at: hoursAgo(3) },
        { action: 'auth.login_failed', outcome: 'failure', created_at: hoursAgo(40) },
      ])
      .execute();

    const health = await auditHealth(db, parseWith(adminAuditHealthRoute.query, {}), NOW);
    expect(health.status).toBe('degraded');
    expect(health.total_failures).toBe(3);
    expect(health.failing_actions).toEqual([
      {
        action: 'admin.prompt.create',
        failures: 1,
        written: 0,
        last_error_message: 'disk full',
        last_failed_at: hoursAgo(1).toISOString(),
      },
      { action: 'auth.login_failed', failures: 2, written: 1, last_error_message: 'timeout 2', last_failed_at: hoursAgo(2).toISOString() },
    ]);

    const wide = await auditHealth(db, parseWith(adminAuditHealthRoute.query, { window_hours: '48' }), NOW);
    expect(wide.failing_actions.find((f) => f.action === 'auth.login_failed')).toMatchObject({
      failures: 3,
      written: 2,
      last_error_message: 'timeout 2',
    });
    // the window includes its start
    expect(
      (await auditHealth(db, parseWith(adminAuditHealthRoute.query, { window_hours: '1' }), NOW)).failing_actions.map((f) => f.action),
    ).toEqual(['admin.prompt.create']);
  });

  test.each([{ window_hours: '0' }, { window_hours: '721' }, { window_hours: 'day' }, { window_hours: '1.5' }, { hours: '2' }])(
    'bad query %j → 400',
    async (query) => {
      expect(await refusal((async () => auditHealth(db, parseWith(adminAuditHealthRoute.query, query), NOW))())).toMatchObject({
        kind: 'invalid',
        code: 'validation_failed',
      });
    },
  );
});

describe('users', () => {
  beforeAll(async () => {
    const ivy = ids['ivy@alpha.test']!;
    await db
      .insertInto('ai_calls')
      .values([
        {
          purpose: 'analysis',
          region: 'us-east-1',
          model_id: 'm',
          outcome: 'ok',
          input_tokens: 100,
          output_tokens: 40,
          user_id: ivy,
          created_at: new Date('2026-04-01T10:00:00Z'),
        },
        {
          purpose: 'quality',
          region: 'us-east-1',
          model_id: 'm',
          outcome: 'throttled',
          user_id: ivy,
          created_at: new Date('2026-04-01T10:00:01Z'),
        },
        {
          purpose: 'quality',
          region: 'us-west-2',
          model_id: 'm',
          outcome: 'ok',
          input_tokens: 50,
          output_tokens: 5,
          user_id: ivy,
          created_at: new Date('2026-04-02T09:00:00Z'),
        },
        // the sweeps' calls belong to no user
        { purpose: 'embedding', region: 'us-east-1', model_id: 'e', outcome: 'ok', input_tokens: 7 },
      ])
      .execute();
  });

  const emailsByGroup = (page: Awaited<ReturnType<typeof listUsers>>) =>
    page.organizations.map((o) => [o.organization_name, o.users.map((u) => u.email)]);

  test('grouped by organization, operators first, with roles and AI usage from the ledger', async () => {
    const page = await listUsers(db, parseWith(adminUsersRoute.query, {}));
    expect(page.next_cursor).toBeNull();
    expect(emailsByGroup(page)).toEqual([
      [null, ['admin@ops.test']],
      ['Alpha Org', ['ivy@alpha.test']],
      ['Beta Org', ['bo@beta.test']],
    ]);
    expect(page.organizations[0]).toMatchObject({ organization_id: null, users: [{ role: 'admin' }] });
    const alpha = page.organizations[1]!;
    expect(alpha.organization_id).toEqual(expect.any(String));
    expect(alpha.users[0]).toEqual({
      user_id: ids['ivy@alpha.test'],
      email: 'ivy@alpha.test',
      display_name: 'Ivy',
      role: 'investigator',
      created_at: expect.any(String),
      ai_usage: { calls: 3, successful_calls: 2, input_tokens: 150, output_tokens: 45, last_call_at: '2026-04-02T09:00:00.000Z' },
    });
    expect(page.organizations[2]!.users[0]).toMatchObject({
      ai_usage: { calls: 0, successful_calls: 0, input_tokens: 0, output_tokens: 0, last_call_at: null },
    });
  });

  test('pages follow next_cursor until null, a group continuing on the next page', async () => {
    const first = await listUsers(db, parseWith(adminUsersRoute.query, { limit: '2' }));
    expect(emailsByGroup(first)).toEqual([
      [null, ['admin@ops.test']],
      ['Alpha Org', ['ivy@alpha.test']],
    ]);
    const second = await listUsers(db, parseWith(adminUsersRoute.query, { limit: '2', cursor: first.next_cursor! }));
    expect(emailsByGroup(second)).toEqual([['Beta Org', ['bo@beta.test']]]);
    expect(second.next_cursor).toBeNull();
  });

  test('an operator cannot be put into an organization, nor an investigator left without one', async () => {
    const [alpha] = await db.selectFrom('organizations').select('id').where('name', '=', 'Alpha Org').execute();
    await expect(
      db
        .insertInto('users')
        .values({ organization_id: alpha!.id, idp_subject: 's-x', email: 'x@alpha.test', display_name: 'X', role: 'admin' })
        .execute(),
    ).rejects.toThrow(/users_operator_has_no_organization/);
    await expect(
      db
        .insertInto('users')
        .values({ organization_id: null, idp_subject: 's-y', email: 'y@alpha.test', display_name: 'Y', role: 'investigator' })
        .execute(),
    ).rejects.toThrow(/users_operator_has_no_organization/);
  });

  // a forged cursor whose strings break the string rule (they would reach SQL) is refused like any bad cursor
  const forged = Buffer.from(JSON.stringify(['Alpha\u0000Org', 'ivy@alpha.test'])).toString('base64url');
  test.each([
    { limit: '0' },
    { limit: '201' },
    { limit: 'ten' },
    { cursor: '' },
    { cursor: 'not-a-cursor' },
    { cursor: forged },
    { after: 'x' },
    { page: '2' },
  ])('bad query %j → 400', async (query) => {
    expect(await refusal((async () => listUsers(db, parseWith(adminUsersRoute.query, query)))())).toMatchObject({
      kind: 'invalid',
      code: 'validation_failed',
    });
  });
});
