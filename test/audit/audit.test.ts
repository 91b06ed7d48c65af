/**
 * The audit writer: a written row, and a failed write that never fails the caller — it returns
 * false, logs `[AUDIT FAILURE]` and is remembered in `audit_failures` (which audit-health reads);
 * when even that insert fails (the database is gone), the log lines are what is left.
 */
import type { Kysely } from 'kysely';
import { AUDIT_FAILURE_MARKER, writeAudit } from '#core/audit/audit';
import type { Database } from '#core/db/schema';
import { jsonColumn } from '#core/db/values';
import { logger } from '#core/logger';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
let errorLog: jest.SpyInstance;
let userId = '';
let organizationId = '';

beforeAll(async () => {
  ({ id: organizationId } = await db.insertInto('organizations').values({ name: 'Audit Org' }).returning('id').executeTakeFirstOrThrow());
  ({ id: userId } = await db
    .insertInto('users')
    .values({
      organization_id: organizationId,
      idp_subject: 'audit-investigator',
      email: 'audit-investigator@example.test',
      display_name: 'Audit Investigator',
      role: 'investigator',
    })
    .returning('id')
    .executeTakeFirstOrThrow());
});
beforeEach(() => {
  errorLog = jest.spyOn(logger, 'error');
});
afterEach(() => errorLog.mockRestore());

const failureLines = () => errorLog.mock.calls.filter(([message]) => message === AUDIT_FAILURE_MARKER);

test('a successful write stores one row with every field and returns true', async () => {
  const ok = await writeAudit(db, {
    action: 'admin.prompt.create',
    outcome: 'success',
    actorUserId: userId,
    actorAddress: '203.0.113.7',
    organizationId,
    target: 'prompt:analysis_gap',
    detail: { version: 2 },
  });
  expect(ok).toBe(true);
  const rows = await db.selectFrom('audit_log').selectAll().where('action', '=', 'admin.prompt.create').execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    outcome: 'success',
    actor_user_id: userId,
    actor_address: '203.0.113.7',
    organization_id: organizationId,
    target: 'prompt:analysis_gap',
  });
  expect(jsonColumn(rows[0]!.detail)).toEqual({ version: 2 });
  expect(failureLines()).toHaveLength(0);
});

test('optional fields default to null', async () => {
  expect(await writeAudit(db, { action: 'auth.login_failed', outcome: 'failure' })).toBe(true);
  const row = await db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login_failed').executeTakeFirstOrThrow();
  expect(row).toMatchObject({ actor_user_id: null, actor_address: null, organization_id: null, target: null, detail: null });
});

test('a failed write returns false, logs [AUDIT FAILURE] and is recorded in audit_failures', async () => {
  const before = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  // an actor that is no user breaks the foreign key: the insert really fails in the database
  const ok = await writeAudit(db, {
    action: 'admin.settings.update',
    outcome: 'failure',
    actorUserId: '00000000-0000-4000-8000-000000000001',
  });
  expect(ok).toBe(false);
  const after = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));

  const lines = failureLines();
  expect(lines).toHaveLength(1);
  expect(lines[0]![1]).toMatchObject({ action: 'admin.settings.update', outcome: 'failure' });
  expect(String((lines[0]![1] as { error: string }).error)).toMatch(/foreign key|violates/i);

  const failures = await db.selectFrom('audit_failures').selectAll().execute();
  expect(failures).toHaveLength(1);
  expect(failures[0]!.action).toBe('admin.settings.update');
  expect(failures[0]!.error_message).toMatch(/foreign key|violates/i);
});

test('never throws, even when the failure cannot be recorded either (database gone): two log lines instead', async () => {
  const gone = {
    insertInto: () => ({ values: () => ({ execute: () => Promise.reject(new Error('connection terminated')) }) }),
  } as unknown as Kysely<Database>;
  await expect(writeAudit(gone, { action: 'auth.login_failed', outcome: 'failure' })).resolves.toBe(false);
  const lines = failureLines();
  expect(lines).toHaveLength(2);
  expect(lines[0]![1]).toMatchObject({ action: 'auth.login_failed', error: 'connection terminated' });
  expect(lines[1]![1]).toMatchObject({ action: 'auth.login_failed', error: 'could not record the failure' });
});

test('text PostgreSQL cannot hold (NUL, unpaired surrogates) is stored escaped, never lost to an [AUDIT FAILURE]', async () => {
  const ok = await writeAudit(db, {
    action: 'auth.login_failed',
    outcome: 'failure',
    actorAddress: '203.0.113.9',
    target: 'user:a\u0000b@example.com',
    detail: { stage: 'password', name: 'x\uD800', ['k\u0000']: ['\uDC00'] },
  });
  expect(ok).toBe(true);
  const row = await db.selectFrom('audit_log').selectAll().where('target', '=', 'user:a\\u0000b@example.com').executeTakeFirstOrThrow();
  expect(jsonColumn(row.detail)).toEqual({ stage: 'password', name: 'x\\ud800', 'k\\u0000': ['\\udc00'] });
  expect(failureLines()).toHaveLength(0);
});
