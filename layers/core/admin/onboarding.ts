/**
 * Onboarding, run by the `users` operator function (`npm run users`): organizations, and users put into
 * them. A user is two things that must agree: a Cognito user (its immutable `custom:organization_id`
 * becomes the token's organization, the `admin` group the operator role) and a `users` row keyed by
 * the Cognito `sub`. Investigators belong to exactly one organization; administrators are the service's
 * operators and belong to none (docs/admin.md), so an invitation that names both is refused.
 *
 * Order of an invitation: check everything the database can refuse, create the Cognito user (Cognito
 * mails the temporary password), add it to the group, write the row. If a later step fails, the Cognito
 * user is deleted again, so a retry starts clean.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { ADMIN_GROUP } from '#manifest/runtime-names';
import { cognitoClient } from '#core/aws/cognito';
import { ENV, requireEnv } from '#core/config';
import { checkWith, describeIssues } from '#core/strings';
import { ORGANIZATION_ATTRIBUTE } from '#core/auth/token-claims';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { ROLES } from '#core/domain/vocabulary';
import { logger } from '#core/logger';
import { ifUsed } from '#core/if-used';

const name = /* @__PURE__ */ ifUsed(() => z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'));

const onboardingRequestSchema = /* @__PURE__ */ ifUsed(() =>
  z.discriminatedUnion(
    'command',
    [
      z.strictObject({ command: z.literal('create-organization'), name }),
      z.strictObject({
        command: z.literal('invite'),
        email: z
          .email('must be an email address')
          .max(320)
          .transform((e) => e.toLowerCase()),
        display_name: name.optional(),
        /** an organization's id or exact name; investigators only */
        organization: name.optional(),
        role: z.enum(ROLES).default('investigator'),
      }),
      z.strictObject({ command: z.literal('list') }),
    ],
    { error: 'command must be create-organization, invite or list' },
  ),
);

/** A refusal the operator can act on: its message is the whole answer (no stack, nothing changed). */
export class OnboardingError extends Error {
  override readonly name = 'OnboardingError';
}

export interface OnboardingDeps {
  db: Kysely<Database>;
  idp: Pick<CognitoIdentityProviderClient, 'send'>;
  userPoolId: string;
}

export interface InvitedUser {
  user_id: string;
  email: string;
  role: 'investigator' | 'admin';
  organization_id: string | null;
  organization_name: string | null;
  status: string;
}

export interface OrganizationListing {
  /** organization null: the operators */
  organizations: {
    organization_id: string | null;
    organization_name: string | null;
    users: { user_id: string; email: string; display_name: string; role: string; created_at: string }[];
  }[];
}

const findOrganization = async (db: Kysely<Database>, ref: string) => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where((eb) => (uuid ? eb.or([eb('id', '=', ref.toLowerCase()), eb('name', '=', ref)]) : eb('name', '=', ref)))
    .execute();
  if (rows.length === 0)
    throw new OnboardingError(`no organization "${ref}" (by id or exact name): create it first with create-organization`);
  return rows[0]!;
};

const createOrganization = async ({ db }: Pick<OnboardingDeps, 'db'>, orgName: string) => {
  const existing = await db.selectFrom('organizations').select('id').where('name', '=', orgName).executeTakeFirst();
  if (existing) throw new OnboardingError(`an organization named "${orgName}" already exists (${existing.id})`);
  const row = await db
    .insertInto('organizations')
    .values({ name: orgName })
    .returning(['id', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
  return { organization_id: row.id, organization_name: row.name, created_at: isoTime(row.created_at)! };
};

const inviteUser = async (
  { db, idp, userPoolId }: OnboardingDeps,
  request: Extract<z.output<typeof onboardingRequestSchema>, { command: 'invite' }>,
): Promise<InvitedUser> => {
  const { email, role } = request;
  if (role === 'admin' && request.organization) {
    throw new OnboardingError(
      "administrators are the service's operators and belong to no organization: invite them without --organization",
    );
  }
  if (role === 'investigator' && !request.organization)
    throw new OnboardingError('an investigator belongs to an organization: give --organization <id or name>');
  const organization = request.organization ? await findOrganization(db, request.organization) : undefined;
  const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw new OnboardingError(`a user with email ${email} already exists`);

  const created = await idp
    .send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          ...(organization ? [{ Name: ORGANIZATION_ATTRIBUTE, Value: organization.id }] : []),
        ],
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name === 'UsernameExistsException')
        throw new OnboardingError(`the user pool already has ${email}; it has no users row here (delete it in Cognito, then invite again)`);
      throw error;
    });
  const subject = created.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
  try {
    if (!subject) throw new Error('AdminCreateUser returned no sub');
    if (role === 'admin')
      await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: subject, GroupName: ADMIN_GROUP }));
    const row = await db
      .insertInto('users')
      .values({
        organization_id: organization?.id ?? null,
        idp_subject: subject,
        email,
        display_name: request.display_name ?? email.replace(/@.*$/, ''),
        role,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      user_id: row.id,
      email,
      role,
      organization_id: organization?.id ?? null,
      organization_name: organization?.name ?? null,
      status: created.User?.UserStatus ?? 'FORCE_CHANGE_PASSWORD',
    };
  } catch (error) {
    // undo the Cognito user, so the pool never holds someone the service does not know
    await idp
      .send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: subject ?? email }))
      .catch((undo: unknown) => logger.error('could not delete the half-invited Cognito user', { email, error: undo as Error }));
    throw error;
  }
};

const listOrganizations = async ({ db }: Pick<OnboardingDeps, 'db'>): Promise<OrganizationListing> => {
  const [organizations, users] = await Promise.all([
    db.selectFrom('organizations').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('users').select(['id', 'email', 'display_name', 'role', 'organization_id', 'created_at']).orderBy('email').execute(),
  ]);
  const usersOf = (orgId: string | null) =>
    users
      .filter((u) => u.organization_id === orgId)
      .map((u) => ({ user_id: u.id, email: u.email, display_name: u.display_name, role: u.role, created_at: isoTime(u.created_at)! }));
  return {
    organizations: [
      { organization_id: null, organization_name: null, users: usersOf(null) },
      ...organizations.map((o) => ({ organization_id: o.id, organization_name: o.name, users: usersOf(o.id) })),
    ],
  };
};

/** What the users operator function runs with: its database, the pool's client and id. */
export const onboardingDeps = (db: Kysely<Database>): OnboardingDeps => ({
  db,
  idp: cognitoClient(),
  userPoolId: requireEnv(ENV.userPoolId),
});

/** One operator request: validated, then run. Refusals come back as OnboardingError. */
export const runOnboarding = async (deps: OnboardingDeps, input: unknown) => {
  const checked = checkWith(onboardingRequestSchema, input);
  if (!checked.ok) throw new OnboardingError(describeIssues(checked.issues));
  const request = checked.data;
  switch (request.command) {
    case 'create-organization':
      return createOrganization(deps, request.name);
    case 'invite':
      return inviteUser(deps, request);
    case 'list':
      return listOrganizations(deps);
  }
};
