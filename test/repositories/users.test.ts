/**
 * The users row of a signed-in investigator, created on first use from the token: once per subject
 * (also under concurrency), a placeholder address when the token has no email, always as an investigator
 * of the token's organization (an admin-group token with an organization is a member, not an operator),
 * and a clear 403 when the email is another user's.
 */
import { ensureUser, userIdBySubject } from '#core/repositories/users';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
let organizationId = '';

beforeAll(async () => {
  ({ id: organizationId } = await db
    .insertInto('organizations')
    .values({ name: 'First Use Org' })
    .returning('id')
    .executeTakeFirstOrThrow());
});

const rowOf = (id: string) =>
  db.selectFrom('users').select(['email', 'role', 'organization_id', 'idp_subject']).where('id', '=', id).executeTakeFirstOrThrow();

test('created once on first use, also when two first requests race', async () => {
  const caller = { subject: 'first-use-1', email: 'first.use@example.test', organizationId };
  const [a, b] = await Promise.all([ensureUser(db, caller), ensureUser(db, caller)]);
  expect(a).toBe(b);
  expect(await ensureUser(db, caller)).toBe(a);
  expect(await rowOf(a)).toEqual({
    email: 'first.use@example.test',
    role: 'investigator',
    organization_id: organizationId,
    idp_subject: 'first-use-1',
  });
});

test('a token without an email gets a placeholder that never delivers', async () => {
  const id = await ensureUser(db, { subject: 'first-use-2', email: undefined, organizationId });
  expect((await rowOf(id)).email).toBe('first-use-2@users.invalid');
});

test('an admin-group token that carries an organization is recorded as a member of it (operators have none)', async () => {
  const id = await ensureUser(db, { subject: 'first-use-3', email: 'group.member@example.test', organizationId });
  expect(await rowOf(id)).toMatchObject({ role: 'investigator', organization_id: organizationId });
});

test("an email that is another user's is a 403, and nothing is written", async () => {
  await expect(ensureUser(db, { subject: 'first-use-4', email: 'first.use@example.test', organizationId })).rejects.toMatchObject({
    kind: 'refused',
  });
  expect(await userIdBySubject(db, 'first-use-4')).toBeUndefined();
});
