/**
 * Onboarding through the twin rendered from the synthesized stage, as an operator does it after a deploy:
 * the organization's investigation loaded with `npm run seed -- --twin`, then `npm run users` (the real CLI code) invokes the `users` operator function over the twin's Lambda API,
 * which creates the organization row, the Cognito user with its immutable organization (AdminCreateUser
 * through the edge's IAM check) and the users row. The new investigator signs in with the mailed temporary
 * password, sets their own, and runs an analysis of their organization's investigation to completion.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImportCli } from '../../lib/operator/cli-import';
import { runUsersCli } from '../../lib/operator/cli-users';
import { useTemporaryFolder } from '../support/temporary-folder';
import type { TwinTest } from '../support/twin';

export const onboardingUsers = (e2e: TwinTest): void => {
  const { call } = e2e;
  const folder = useTemporaryFolder('ias-onboarding-');

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runUsersCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { twinDir: e2e.twin.twinDir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  const ORG = 'Acme Forensics';
  const EMAIL = 'new.investigator@acme.example';

  test('invite a new user into a new organization, sign in, create an analysis, see it complete', async () => {
    const { twin } = e2e;
    // the organization and its evidence, loaded by the operator as into a deployed stage (npm run seed -- --twin)
    const file = join(folder.dir, 'acme.json');
    writeFileSync(
      file,
      JSON.stringify({
        organizations: [
          {
            name: ORG,
            users: [],
            investigations: [
              {
                title: 'ACME-1: duplicate supplier payments',
                questions: [{ key: 'q1', text: 'Were invoices from Delta Parts paid twice?' }],
                topics: [],
                evidence: [
                  {
                    title: 'Payment run 14 March',
                    content: 'Invoice DP-2201 from Delta Parts for USD 12,400 was paid on 14 March by transfer T-88.',
                    linked_questions: ['q1'],
                  },
                  {
                    title: 'Payment run 21 March',
                    content: 'Invoice DP-2201 from Delta Parts for USD 12,400 was paid again on 21 March by transfer T-95.',
                    linked_questions: ['q1'],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const out: string[] = [];
    expect(
      await runImportCli(
        ['--twin', '--file', file, '--json'],
        { out: (l) => out.push(l), err: (l) => out.push(l) },
        { twinDir: twin.twinDir },
      ),
    ).toBe(0);
    const loaded = JSON.parse(out.join('\n')) as { organizations: { id: string }[]; investigations: { id: string }[] };
    const investigationId = loaded.investigations[0]!.id;
    expect((await call('POST', '/api/admin/cron/embedding-sweeper', twin.cronSecret)).status).toBe(200);

    const invited = await cli('invite', '--email', EMAIL, '--organization', ORG, '--name', 'Nia New');
    expect(invited).toMatchObject({ code: 0, err: '' });
    expect(invited.out).toMatch(`invited ${EMAIL} as an investigator of "${ORG}"`);
    const mail = twin.identityProvider.outbox().find((m) => m.kind === 'invitation' && m.email === EMAIL);
    expect(mail).toBeDefined();

    const first = await call('POST', '/api/auth/login', undefined, { email: EMAIL, password: mail!.code });
    expect(first.body).toMatchObject({ status: 'challenge', challenge: 'new_password' });
    const signedIn = await call('POST', '/api/auth/new-password', undefined, {
      username: first.body.username,
      session: first.body.session,
      new_password: 'Nia-Chosen-Passw0rd!',
    });
    expect(signedIn.status).toBe(200);
    const token = signedIn.body.access_token as string;

    // the token carries the new organization: its investigation and nothing of the demo organizations
    const list = await call('GET', '/api/investigations', token);
    expect(list.status).toBe(200);
    expect(list.body.investigations.map((i: { investigation_id: string }) => i.investigation_id)).toEqual([investigationId]);

    const created = await call('POST', '/api/analysis', token, { investigation_id: investigationId, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    const analysis = await e2e.pollUntilGenerated(created.body.analysis_id, token);
    expect(['complete', 'verified', 'checking']).toContain(analysis.generation_status);
    expect(analysis.result).toBeTruthy();

    const row = await twin.database.db
      .selectFrom('users')
      .select(['organization_id', 'role', 'display_name'])
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ organization_id: loaded.organizations[0]!.id, role: 'investigator', display_name: 'Nia New' });
  }, 120_000);

  test('create-organization, then list: operators first, each organization with its users', async () => {
    const created = await cli('create-organization', 'Borealis Audit');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/created organization "Borealis Audit": [0-9a-f-]{36}/);
    expect(await cli('create-organization', 'Borealis Audit')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/refused \(nothing changed\): an organization named "Borealis Audit" already exists/),
    });

    const operator = await cli('invite', '--email', 'ops.lead@operators.example', '--role', 'admin');
    expect(operator).toMatchObject({ code: 0 });
    expect(operator.out).toMatch('as an operator (administrator)');

    const listed = await cli('list', '--json');
    expect(listed.code).toBe(0);
    const { organizations } = JSON.parse(listed.out) as {
      organizations: { organization_name: string | null; users: { email: string; role: string }[] }[];
    };
    expect(organizations[0]!.organization_name).toBeNull();
    expect(organizations[0]!.users).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'ops.lead@operators.example', role: 'admin' })]),
    );
    expect(organizations.find((o) => o.organization_name === 'Borealis Audit')!.users).toEqual([]);
    const text = await cli('list');
    expect(text.out.split('\n')[0]).toBe('Operators (administrators, no organization)');
  });

  test('refusals change nothing: an operator with an organization, an investigator without one, a taken email, an unknown organization', async () => {
    const count = async () =>
      Number(
        (
          await e2e.twin.database.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const outboxBefore = e2e.twin.identityProvider.outbox().length;
    expect(await cli('invite', '--email', 'x@ops.example', '--role', 'admin', '--organization', ORG)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/administrators are the service's operators and belong to no organization/),
    });
    expect(await cli('invite', '--email', 'y@acme.example')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/an investigator belongs to an organization/),
    });
    expect(await cli('invite', '--email', EMAIL, '--organization', ORG)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/already exists/),
    });
    expect(await cli('invite', '--email', 'z@nowhere.example', '--organization', 'No Such Org')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/no organization "No Such Org"/),
    });
    expect(await cli('invite', '--email', 'not-an-email', '--organization', ORG)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/email: must be an email address/),
    });
    expect(await count()).toBe(before);
    expect(e2e.twin.identityProvider.outbox().length).toBe(outboxBefore);
  });

  test('an operator token that also carries an organization is refused on admin routes', async () => {
    const both = await e2e.twin.token({
      subject: 'mixed-1',
      email: 'mixed@acme.example',
      role: 'admin',
      organizationId: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01',
    });
    const res = await call('GET', '/api/admin/users', both);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/belongs to an organization/);
    const operator = await e2e.token('admin');
    expect((await call('GET', '/api/admin/users', operator)).status).toBe(200);
  });

  test('without a running twin or a stage, the command says how to start one', async () => {
    const out: string[] = [];
    const err: string[] = [];
    expect(await runUsersCli(['list'], { out: (l) => out.push(l), err: (l) => err.push(l) }, { twinDir: '/nonexistent-twin' })).toBe(1);
    expect(err.join('\n')).toMatch(/the local twin is not running .*npm start/);
  });
};
