/**
 * The operator functions meet the API's string rule (issue 14, item 5): an onboarding request, an import
 * request or a seed file holding a NUL or an unpaired surrogate is refused, naming the field, before
 * anything is asked of the database, the user pool or the bucket (PostgreSQL refuses a NUL with a fault
 * instead of a refusal, and silently stores an unpaired surrogate as U+FFFD).
 */
import type { Kysely } from 'kysely';
import { OnboardingError, runOnboarding, type OnboardingDeps } from '#core/admin/onboarding';
import type { Database } from '#core/db/schema';
import { formatIssues, validateSeed } from '#core/seed/format';
import { ImportRefusal, runImport } from '#core/seed/import';

const HOSTILE = ['Acme\u0000', 'Acme\uD800', '\uDC00Acme'];

/** dependencies that fail the test if anything reaches them */
const untouchable = new Proxy(
  {},
  {
    get: (_, name) => {
      throw new Error(`reached ${String(name)}`);
    },
  },
);

test.each(HOSTILE)('onboarding refuses %j in any field, naming it', async (bad) => {
  const deps = { db: untouchable, idp: untouchable, userPoolId: 'pool' } as unknown as OnboardingDeps;
  await expect(runOnboarding(deps, { command: 'create-organization', name: bad })).rejects.toThrow(
    new OnboardingError('name: must not contain NUL characters or unpaired UTF-16 surrogates'),
  );
  await expect(runOnboarding(deps, { command: 'invite', email: 'a@acme.example', display_name: bad })).rejects.toThrow(
    /^display_name: must not contain NUL/,
  );
  await expect(runOnboarding(deps, { command: 'list', [bad]: 1 })).rejects.toBeInstanceOf(OnboardingError);
});

test.each(HOSTILE)('an import request refuses %j', async (bad) => {
  const deps = { db: untouchable as Kysely<Database>, bucket: 'files' };
  await expect(runImport(deps, { command: 'load', key: `imports/${bad}.json` })).rejects.toThrow(ImportRefusal);
  await expect(runImport(deps, { command: 'load', key: `imports/${bad}.json` })).rejects.toThrow(/^key: must not contain NUL/);
});

test.each(HOSTILE)('a seed file refuses %j wherever it is, with its JSON path', (bad) => {
  const file = {
    organizations: [
      {
        name: 'Acme',
        users: [],
        investigations: [{ title: 'Inv', questions: [], topics: [], evidence: [{ title: 'E0', content: `paid twice ${bad}` }] }],
      },
    ],
  };
  const result = validateSeed(file);
  expect(result.ok).toBe(false);
  if (!result.ok)
    expect(formatIssues(result.issues)).toBe(
      'organizations[0].investigations[0].evidence[0].content: must not contain NUL characters or unpaired UTF-16 surrogates',
    );
});
