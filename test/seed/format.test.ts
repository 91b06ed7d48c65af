import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS, DEMO_SEED, DEMO_USERS, demoUser } from '#core/seed/demo';
import { formatIssues, formatPath, LIMITS, validateSeed, type SeedFileInput } from '#core/seed/format';

const problems = (input: unknown): string[] => {
  const result = validateSeed(input);
  if (result.ok) throw new Error('expected the input to be invalid');
  return formatIssues(result.issues).split('\n');
};

/** A small valid file; tests break one thing at a time. */
const valid = (): SeedFileInput => ({
  organizations: [
    {
      name: 'Acme',
      users: [{ email: 'A@acme.example', display_name: 'Ann', role: 'investigator', idp_subject: 'acme-ann' }],
      investigations: [
        {
          title: 'Inv',
          questions: [
            { key: 'q1', text: 'Q one?' },
            { key: 'q2', text: 'Q two?' },
          ],
          topics: [{ title: 'Topic' }],
          evidence: [
            { title: 'E0', content: 'c0', linked_questions: ['q1'] },
            { title: 'E1', content: 'c1', collected_at: '2024-03-15T09:30:00Z' },
            { title: 'E2', content: 'c2', collected_at: '2024-03-15' },
            { title: 'E3', content: '', attachments: [{ file_name: 'a.csv', content_type: 'text/csv', text: 'x,y\n1,2\n' }] },
          ],
          background_documents: [{ title: 'Policy', file_name: 'p.txt', content_type: 'text/plain', text: 'rules' }],
        },
      ],
    },
  ],
});

describe('seed file format', () => {
  test('a valid file parses, with defaults and normalisation applied', () => {
    const result = validateSeed(valid());
    if (!result.ok) throw new Error(formatIssues(result.issues));
    const org = result.data.organizations[0]!;
    expect(org.users[0]!.email).toBe('a@acme.example');
    expect(org.investigations[0]!.background_documents![0]!.included_for_ai).toBe(true);
  });

  test('a missing field deep inside is named by its JSON path', () => {
    const file = valid() as { organizations: { investigations: { evidence: Record<string, unknown>[] }[] }[] };
    delete file.organizations[0]!.investigations[0]!.evidence[3]!.title;
    expect(problems(file)).toEqual(['organizations[0].investigations[0].evidence[3].title: Required']);
  });

  test('every problem is reported in one pass, cross-references included', () => {
    const file = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const inv = file.organizations[0].investigations[0];
    inv.evidence[0].linked_questions = ['q1', 'q9', 'q1'];
    inv.evidence[1].colour = 'red';
    inv.evidence[2].collected_at = 'yesterday';
    inv.evidence[3].attachments[0].file_name = '../etc/passwd';
    inv.questions.push({ key: 'q2', text: 'again' });
    inv.title = '   ';
    file.organizations[0].users.push({ email: 'a@ACME.example', display_name: 'Dup', role: 'boss', idp_subject: 'acme-ann' });
    file.organizations[0].id = 'not-a-uuid';
    expect(problems(file).sort()).toEqual(
      [
        'organizations[0].id: must be a UUID such as 8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01',
        'organizations[0].investigations[0].evidence[0].linked_questions[1]: no question with key "q9" in this investigation (its question keys: "q1", "q2")',
        'organizations[0].investigations[0].evidence[0].linked_questions[2]: question "q1" is linked twice',
        'organizations[0].investigations[0].evidence[1].colour: unknown field',
        'organizations[0].investigations[0].evidence[2].collected_at: must be an ISO 8601 date (2024-03-15) or date-time with time zone (2024-03-15T09:30:00Z)',
        'organizations[0].investigations[0].evidence[3].attachments[0].file_name: must be a plain file name (no "/", "\\" or control characters)',
        'organizations[0].investigations[0].questions[2].key: question key "q2" is already used at organizations[0].investigations[0].questions[1].key',
        'organizations[0].investigations[0].title: must not be empty',
        'organizations[0].users[1].email: email "a@acme.example" is already used at organizations[0].users[0].email',
        'organizations[0].users[1].idp_subject: idp_subject "acme-ann" is already used at organizations[0].users[0].idp_subject',
        'organizations[0].users[1].role: must be "investigator": administrators are the service\'s operators and belong to no organization; list them under "operators"',
      ].sort(),
    );
  });

  test('an administrator is an operator: refused inside an organization, accepted under operators, its email unique across both', () => {
    const file = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    file.organizations[0].users[0].role = 'admin';
    file.operators = [
      { email: 'a@acme.example', display_name: 'Op', idp_subject: 'op-1' },
      { email: 'op@ops.example', display_name: 'Op', idp_subject: 'op-2', role: 'admin' },
    ];
    expect(problems(file).sort()).toEqual(
      [
        'operators[1].role: unknown field',
        'organizations[0].users[0].email: email "a@acme.example" is already used at operators[0].email',
        'organizations[0].users[0].role: must be "investigator": administrators are the service\'s operators and belong to no organization; list them under "operators"',
      ].sort(),
    );
    const ok = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    ok.operators = [{ email: 'OP@ops.example', display_name: 'Op', idp_subject: 'op-1' }];
    expect(validateSeed(ok)).toMatchObject({ ok: true, data: { operators: [{ email: 'op@ops.example' }] } });
  });

  test('ids must be unique across the file', () => {
    const file = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const id = '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c77';
    file.organizations[0].id = id;
    file.organizations.push({ id: id.toUpperCase(), name: 'Other', users: [], investigations: [] });
    expect(problems(file)).toEqual([`organizations[1].id: organization id "${id}" is already used at organizations[0].id`]);
  });

  test('wrong types, limits and unknown top-level keys', () => {
    expect(problems(null)).toEqual(['(file): must be an object, got null']);
    expect(problems([])).toEqual(['(file): must be an object, got a list']);
    expect(problems({ organizations: [] })).toEqual(['organizations: must list at least one organization']);
    expect(problems({ organizations: [], version: 2 })).toEqual([
      'organizations: must list at least one organization',
      'version: unknown field',
    ]);
    const file = valid() as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    file.organizations[0].name = 'n'.repeat(LIMITS.name + 1);
    file.organizations[0].investigations[0].questions = 'q1';
    expect(problems(file)).toEqual([
      `organizations[0].name: must be at most ${LIMITS.name} characters`,
      'organizations[0].investigations[0].questions: must be a list, got string',
      'organizations[0].investigations[0].evidence[0].linked_questions[0]: no question with key "q1" in this investigation (its question keys: none)',
    ]);
  });

  test('paths are written the way a reader finds them in the file', () => {
    expect(formatPath([])).toBe('(file)');
    expect(formatPath(['organizations', 0, 'investigations', 1, 'evidence', 3, 'title'])).toBe(
      'organizations[0].investigations[1].evidence[3].title',
    );
    expect(formatPath(['a', 'odd key'])).toBe('a["odd key"]');
  });

  test('the minimal example in docs/seed-format.md is valid', () => {
    const doc = readFileSync(join(__dirname, '../../docs/seed-format.md'), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const result = validateSeed(JSON.parse(example!));
    expect(result.ok ? 'valid' : formatIssues(result.issues)).toBe('valid');
  });
});

describe('demo data set', () => {
  const result = validateSeed(DEMO_SEED);
  if (!result.ok) throw new Error(`demo.json is invalid:\n${formatIssues(result.issues)}`);
  const [northwind, harbor] = result.data.organizations;

  test('has the two organizations with their fixed ids, users and investigations', () => {
    expect(result.data.organizations.map((o) => [o.id, o.name])).toEqual([
      [DEMO_ORGANIZATION_IDS.northwind, 'Northwind Compliance'],
      [DEMO_ORGANIZATION_IDS.harbor, 'Harbor Insurance SIU'],
    ]);
    expect(northwind!.investigations.map((i) => i.id)).toEqual([DEMO_INVESTIGATION_IDS.northwind]);
    expect(harbor!.investigations.map((i) => i.id)).toEqual([DEMO_INVESTIGATION_IDS.harbor]);
  });

  test('the Northwind investigation is big enough to analyse', () => {
    const inv = northwind!.investigations[0]!;
    expect(inv.evidence.length).toBeGreaterThanOrEqual(30);
    expect(inv.evidence.flatMap((e) => e.attachments ?? []).length).toBeGreaterThanOrEqual(8);
    expect(inv.background_documents!.length).toBeGreaterThanOrEqual(4);
    expect(inv.background_documents!.some((d) => !d.included_for_ai)).toBe(true);
    expect(inv.questions.length).toBeGreaterThanOrEqual(4);
    expect(inv.questions.length).toBeLessThanOrEqual(5);
    expect(inv.topics.length).toBeGreaterThanOrEqual(3);
    expect(inv.topics.length).toBeLessThanOrEqual(4);
    const linkCounts = inv.questions.map((q) => inv.evidence.filter((e) => e.linked_questions?.includes(q.key)).length);
    expect(linkCounts.filter((n) => n === 0)).toHaveLength(1); // the spec's informational-note case
    expect(linkCounts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
    expect(inv.evidence.some((e) => e.content === '' && e.attachments?.length)).toBe(true); // an item that is only its attachment
  });

  test('the Harbor investigation is the small one', () => {
    const inv = harbor!.investigations[0]!;
    expect(inv.evidence.length).toBeGreaterThanOrEqual(6);
    expect(inv.evidence.length).toBeLessThanOrEqual(10);
    expect(inv.questions).toHaveLength(2);
    expect(inv.topics).toHaveLength(1);
  });

  test('the facts agree across items (invoice total, amounts)', () => {
    const all = northwind!.investigations[0]!.evidence.map((e) => [e.content, ...(e.attachments ?? []).map((a) => a.text)].join('\n')).join(
      '\n',
    );
    for (const fact of ['24,850.00', '24,600.00', '24,975.00', '74,425.00', 'Dana Reyes', '455 Ridgecrest Dr', 'Crescent Ridge Advisory']) {
      expect(all).toContain(fact);
    }
  });

  test('DEMO_USERS lists the demo users without a database', () => {
    expect(DEMO_USERS.map((u) => [u.email, u.role, u.idp_subject, u.organization_id, u.display_name])).toEqual([
      ['admin@operators.example', 'admin', 'demo-admin', null, 'Avery Admin'],
      ['investigator@northwind.example', 'investigator', 'demo-investigator', DEMO_ORGANIZATION_IDS.northwind, 'Ines Investigator'],
      ['investigator@harbor.example', 'investigator', 'demo-harbor-investigator', DEMO_ORGANIZATION_IDS.harbor, 'Hana Harbor'],
    ]);
    expect(demoUser('admin').idp_subject).toBe('demo-admin');
    expect(demoUser('investigator', DEMO_ORGANIZATION_IDS.harbor).email).toBe('investigator@harbor.example');
  });
});
