/**
 * The seed file format: organizations, their users and investigations (questions, topics, evidence
 * with attachments, background documents), and the service's operators (administrators, who belong to
 * no organization). docs/seed-format.md describes it for people.
 *
 * Objects are strict (an unknown key is an error, so a typo never silently drops data). Besides the
 * shape, the file's cross-references are checked: every linked question names a question key of the
 * same investigation; emails, identity-provider subjects, organization ids and investigation ids are
 * unique in the file; question keys are unique within their investigation. Those checks run even when
 * other parts of the file are malformed, so one pass reports every problem.
 */
import * as z from 'zod';
import {
  contentType,
  evidenceContent,
  fileName,
  inlineFileText,
  isoDate,
  LIMITS as FIELD_LIMITS,
  list,
  optionalText,
  text,
  unless,
} from '#core/ingestion/fields';
import { unsafeTextIssues } from '#core/strings';
import { ifUsed } from '#core/if-used';

export const LIMITS = {
  ...FIELD_LIMITS,
  organizations: 100,
  usersPerOrganization: 1_000,
  operators: 100,
  investigationsPerOrganization: 200,
  questionsPerInvestigation: 100,
  topicsPerInvestigation: 100,
  evidencePerInvestigation: 5_000,
  backgroundDocumentsPerInvestigation: 200,
  questionKey: 64,
  email: 254,
  idpSubject: 255,
} as const;

const questionKey = /* @__PURE__ */ ifUsed(() =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(LIMITS.questionKey)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, "-", "_" or "." (starting with a letter or digit)'),
);

const uuid = /* @__PURE__ */ ifUsed(() =>
  z.uuid({ error: unless('must be a UUID such as 8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01') }).transform((id) => id.toLowerCase()),
);

const seedPerson = {
  email: z
    .email({ error: unless('must be an email address') })
    .max(LIMITS.email)
    .transform((email) => email.toLowerCase()),
  display_name: text(LIMITS.name),
  idp_subject: text(LIMITS.idpSubject),
};

/** A member of an organization: an investigator (administrators are operators, listed apart). */
const seedUserSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    ...seedPerson,
    role: z.literal('investigator', {
      error: unless(
        'must be "investigator": administrators are the service\'s operators and belong to no organization; list them under "operators"',
      ),
    }),
  }),
);

/** An operator: an administrator of the whole service, in no organization. */
const seedOperatorSchema = /* @__PURE__ */ ifUsed(() => z.strictObject(seedPerson));

export const seedQuestionSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    key: questionKey,
    text: text(LIMITS.questionText),
  }),
);

export const seedTopicSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    title: text(LIMITS.title),
    description: optionalText(LIMITS.description),
  }),
);

export const seedAttachmentSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    file_name: fileName,
    content_type: contentType,
    text: inlineFileText,
  }),
);

export const seedEvidenceSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    title: text(LIMITS.title),
    /** may be empty when the item is only its attachments */
    content: evidenceContent,
    collected_at: isoDate.optional(),
    linked_questions: list(questionKey, LIMITS.questionsPerInvestigation).optional(),
    attachments: list(seedAttachmentSchema, LIMITS.attachmentsPerEvidence).optional(),
  }),
);

export const seedBackgroundDocumentSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    title: text(LIMITS.title),
    file_name: fileName,
    content_type: contentType,
    text: inlineFileText,
    included_for_ai: z.boolean().default(true),
  }),
);

const seedInvestigationSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    id: uuid.optional(),
    title: text(LIMITS.title),
    description: optionalText(LIMITS.description),
    questions: list(seedQuestionSchema, LIMITS.questionsPerInvestigation),
    topics: list(seedTopicSchema, LIMITS.topicsPerInvestigation),
    evidence: list(seedEvidenceSchema, LIMITS.evidencePerInvestigation),
    background_documents: list(seedBackgroundDocumentSchema, LIMITS.backgroundDocumentsPerInvestigation).optional(),
  }),
);

const seedOrganizationSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    id: uuid.optional(),
    name: text(LIMITS.name),
    users: list(seedUserSchema, LIMITS.usersPerOrganization),
    investigations: list(seedInvestigationSchema, LIMITS.investigationsPerOrganization),
  }),
);

export const seedFileSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .strictObject({
      organizations: list(seedOrganizationSchema, LIMITS.organizations).min(1, 'must list at least one organization'),
      operators: list(seedOperatorSchema, LIMITS.operators).optional(),
    })
    .superRefine(
      (value, ctx) => {
        for (const issue of crossReferenceIssues(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      },
      { when: () => true },
    ),
); // also when other parts are malformed, so every problem is reported in one pass

export type SeedFileInput = z.input<typeof seedFileSchema>;
export type SeedFile = z.output<typeof seedFileSchema>;

type IssuePath = (string | number)[];
export interface SeedIssue {
  path: IssuePath;
  message: string;
}

/** `organizations[0].investigations[1].evidence[3].title`, or `(file)` for the top level. */
export const formatPath = (path: readonly PropertyKey[]): string => {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const name = String(part);
      out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? (out ? `.${name}` : name) : `[${JSON.stringify(name)}]`;
    }
  }
  return out || '(file)';
};

export const formatIssues = (issues: readonly SeedIssue[]): string =>
  issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('\n');

export type SeedValidation = { ok: true; data: SeedFile } | { ok: false; issues: SeedIssue[] };

/** Check a parsed JSON value against the format; on failure, every problem with its JSON path. */
export const validateSeed = (input: unknown): SeedValidation => {
  const result = seedFileSchema.safeParse(input, { error: requiredMessage });
  // the API's string rule (no NUL, no unpaired surrogate): PostgreSQL refuses the one and mangles the other
  const unsafe = unsafeTextIssues(input).map((issue) => ({
    path: issue.path === '' ? [] : issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
    message: issue.message,
  }));
  if (result.success && unsafe.length === 0) return { ok: true, data: result.data };
  const issues: SeedIssue[] = [];
  const seen = new Set<string>();
  const add = (issue: SeedIssue) => {
    const key = `${formatPath(issue.path)}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  };
  unsafe.forEach(add);
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add({ path: [...path, key], message: 'unknown field' });
    } else {
      add({ path, message: issue.message });
    }
  }
  return { ok: false, issues };
};

/** A missing field reads `Required`; a value of the wrong type names what was expected. */
const requiredMessage = (issue: z.core.$ZodRawIssue): string | undefined => {
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_value') return undefined;
  if (issue.input === undefined) return 'Required';
  if (issue.code !== 'invalid_type') return undefined;
  const expected = issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'an object' : `a ${String(issue.expected)}`;
  return `must be ${expected}, got ${describeValue(issue.input)}`;
};

const describeValue = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value;

// ---------------------------------------------------------------------------------------------------
// Cross-references, over a value that may be malformed anywhere (so nothing here trusts the shape).

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim() : undefined);

const crossReferenceIssues = (file: unknown): SeedIssue[] => {
  const issues: SeedIssue[] = [];
  const firstSeen = <K>(map: Map<K, IssuePath>, key: K | undefined, path: IssuePath, what: string) => {
    if (key === undefined || key === '') return;
    const earlier = map.get(key);
    if (earlier) issues.push({ path, message: `${what} is already used at ${formatPath(earlier)}` });
    else map.set(key, path);
  };
  if (!isRecord(file)) return issues;
  const emails = new Map<string, IssuePath>();
  const subjects = new Map<string, IssuePath>();
  const orgIds = new Map<string, IssuePath>();
  const investigationIds = new Map<string, IssuePath>();

  const person = (user: unknown, path: IssuePath) => {
    if (!isRecord(user)) return;
    const email = str(user.email)?.toLowerCase();
    firstSeen(emails, email, [...path, 'email'], `email "${email}"`);
    const subject = str(user.idp_subject);
    firstSeen(subjects, subject, [...path, 'idp_subject'], `idp_subject "${subject}"`);
  };
  entries(file.operators).forEach((operator, p) => person(operator, ['operators', p]));

  entries(file.organizations).forEach((org, o) => {
    if (!isRecord(org)) return;
    const orgPath: IssuePath = ['organizations', o];
    firstSeen(orgIds, str(org.id)?.toLowerCase(), [...orgPath, 'id'], `organization id "${str(org.id)?.toLowerCase()}"`);

    entries(org.users).forEach((user, u) => person(user, [...orgPath, 'users', u]));

    entries(org.investigations).forEach((inv, i) => {
      if (!isRecord(inv)) return;
      const invPath: IssuePath = [...orgPath, 'investigations', i];
      firstSeen(investigationIds, str(inv.id)?.toLowerCase(), [...invPath, 'id'], `investigation id "${str(inv.id)?.toLowerCase()}"`);

      const keys = new Map<string, IssuePath>();
      entries(inv.questions).forEach((question, q) => {
        if (!isRecord(question)) return;
        const key = str(question.key);
        firstSeen(keys, key, [...invPath, 'questions', q, 'key'], `question key "${key}"`);
      });
      const topicTitles = new Map<string, IssuePath>();
      entries(inv.topics).forEach((topic, t) => {
        if (!isRecord(topic)) return;
        const title = str(topic.title);
        firstSeen(topicTitles, title?.toLowerCase(), [...invPath, 'topics', t, 'title'], `topic title "${title}"`);
      });

      entries(inv.evidence).forEach((item, e) => {
        if (!isRecord(item)) return;
        const linked = new Set<string>();
        entries(item.linked_questions).forEach((link, l) => {
          const key = str(link);
          if (key === undefined) return;
          const path: IssuePath = [...invPath, 'evidence', e, 'linked_questions', l];
          if (!keys.has(key)) {
            const known = [...keys.keys()];
            issues.push({
              path,
              message: `no question with key "${key}" in this investigation (its question keys: ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'none'})`,
            });
          } else if (linked.has(key)) {
            issues.push({ path, message: `question "${key}" is linked twice` });
          }
          linked.add(key);
        });
      });
    });
  });
  return issues;
};
