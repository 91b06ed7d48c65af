/**
 * IAM policy evaluation: statement matching, condition operators and the same-account combination of
 * identity and resource policies, checked against the rules AWS documents.
 */
import fc from 'fast-check';
import {
  evaluate,
  matchesAction,
  matchesResource,
  statementsOf,
  type AuthorizationRequest,
  type PolicyStatement,
} from '../../lib/twin/iam/policy';

const ACCOUNT = '000000000000';
const ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/ias-generate-role`;
const PRINCIPAL = `arn:aws:sts::${ACCOUNT}:assumed-role/ias-generate-role/ias-generate`;
const QUEUE = `arn:aws:sqs:us-east-1:${ACCOUNT}:ias-generation`;

const request = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  principalArn: PRINCIPAL,
  action: 'sqs:SendMessage',
  resource: QUEUE,
  ...overrides,
});
const allow = (statement: Partial<PolicyStatement> = {}): PolicyStatement => ({
  Effect: 'Allow',
  Action: 'sqs:SendMessage',
  Resource: QUEUE,
  ...statement,
});
const deny = (statement: Partial<PolicyStatement> = {}): PolicyStatement => ({
  Effect: 'Deny',
  Action: 'sqs:SendMessage',
  Resource: QUEUE,
  ...statement,
});
const allowed = (statements: PolicyStatement[], overrides: Partial<AuthorizationRequest> = {}, resourcePolicy?: PolicyStatement[]) =>
  evaluate(statements, request(overrides), resourcePolicy).allowed;

describe('evaluate: decisions', () => {
  test('an identity Allow for the action on the resource allows, naming the statement', () => {
    const statement = allow({ Sid: 'Send' });
    expect(evaluate([statement], request())).toEqual({ allowed: true, by: statement });
  });

  test('no statement for the action or resource is an implicit deny', () => {
    expect(evaluate([], request())).toEqual({ allowed: false, reason: 'no-allow' });
    expect(evaluate([allow({ Action: 'sqs:ReceiveMessage' })], request())).toEqual({ allowed: false, reason: 'no-allow' });
    expect(evaluate([allow({ Resource: `${QUEUE}-dlq` })], request())).toEqual({ allowed: false, reason: 'no-allow' });
  });

  test('an explicit Deny beats an Allow, whichever comes first and whichever policy holds it', () => {
    const denial = deny({ Sid: 'NoSend' });
    expect(evaluate([allow(), denial], request())).toEqual({ allowed: false, reason: 'explicit-deny', by: denial });
    expect(evaluate([denial, allow()], request())).toEqual({ allowed: false, reason: 'explicit-deny', by: denial });
    const queuePolicyDeny = deny({ Principal: '*' });
    expect(evaluate([allow()], request(), [queuePolicyDeny])).toEqual({ allowed: false, reason: 'explicit-deny', by: queuePolicyDeny });
  });

  test('a Deny for another action or resource does not apply', () => {
    expect(allowed([allow(), deny({ Action: 'sqs:DeleteMessage' })])).toBe(true);
    expect(allowed([allow(), deny({ Resource: `${QUEUE}-dlq` })])).toBe(true);
  });

  test('a statement without Action or NotAction, or an identity statement without Resource, applies to nothing', () => {
    expect(allowed([{ Effect: 'Allow', Resource: '*' }])).toBe(false);
    expect(allowed([{ Effect: 'Allow', Action: '*' }])).toBe(false);
  });
});

describe('evaluate: actions and resources', () => {
  test.each([
    ['sqs:*', 'sqs:SendMessage', true],
    ['*', 'bedrock:InvokeModel', true],
    ['s3:Get*', 's3:GetObject', true],
    ['s3:Get*', 's3:PutObject', false],
    ['s3:Get?bject', 's3:GetObject', true],
    ['s3:Get?bject', 's3:GetObjectVersion', false],
    ['SQS:sendmessage', 'sqs:SendMessage', true],
    ['sqs:SendMessage', 'sqs:SENDMESSAGE', true],
    ['sqs:Send', 'sqs:SendMessage', false],
  ])('action pattern %s vs %s → %s', (pattern, action, expected) => {
    expect(matchesAction(pattern, action)).toBe(expected);
    expect(allowed([allow({ Action: pattern, Resource: '*' })], { action })).toBe(expected);
  });

  test.each([
    ['arn:aws:s3:::bucket/*', 'arn:aws:s3:::bucket/a/b/c.txt', true],
    ['arn:aws:s3:::bucket/*', 'arn:aws:s3:::bucket', false],
    ['arn:aws:s3:::bucket*', 'arn:aws:s3:::bucket-other/key', true],
    ['arn:aws:sqs:*:000000000000:ias-*', QUEUE, true],
    ['arn:aws:bedrock:*::foundation-model/*', 'arn:aws:bedrock:us-west-2::foundation-model/anthropic.claude:0', true],
    ['arn:aws:s3:::bucket/file?.txt', 'arn:aws:s3:::bucket/file1.txt', true],
    ['arn:aws:s3:::bucket/file?.txt', 'arn:aws:s3:::bucket/file10.txt', false],
    ['arn:aws:s3:::Bucket/*', 'arn:aws:s3:::bucket/key', false],
    ['*', 'arn:aws:secretsmanager:us-east-1:000000000000:secret:x-AbCdEf', true],
  ])('resource pattern %s vs %s → %s', (pattern, resource, expected) => {
    expect(matchesResource(pattern, resource)).toBe(expected);
    expect(allowed([allow({ Action: '*', Resource: pattern })], { resource })).toBe(expected);
  });

  test('a list of actions or resources matches any of them', () => {
    const statement = allow({ Action: ['sqs:ReceiveMessage', 'sqs:SendMessage'], Resource: [`${QUEUE}-dlq`, QUEUE] });
    expect(allowed([statement])).toBe(true);
  });

  test('NotAction applies to every action but the listed ones', () => {
    const statement = allow({ Action: undefined, NotAction: ['sqs:Delete*', 'sqs:Purge*'] });
    expect(allowed([statement])).toBe(true);
    expect(allowed([statement], { action: 'sqs:DeleteMessage' })).toBe(false);
    expect(allowed([statement], { action: 'SQS:purgequeue' })).toBe(false);
  });

  test('NotResource applies to every resource but the listed ones', () => {
    const statement = deny({ Action: '*', Resource: undefined, NotResource: [QUEUE] });
    expect(allowed([allow({ Resource: '*' }), statement])).toBe(true);
    expect(allowed([allow({ Resource: '*' }), statement], { resource: `${QUEUE}-dlq` })).toBe(false);
  });

  test('a policy variable in a resource is refused, not matched literally', () => {
    expect(() => evaluate([allow({ Resource: 'arn:aws:s3:::bucket/${aws:username}/*' })], request())).toThrow(/policy variables/);
  });
});

describe('evaluate: conditions', () => {
  const withCondition = (Condition: PolicyStatement['Condition']) => [allow({ Condition })];
  const holds = (Condition: PolicyStatement['Condition'], context?: AuthorizationRequest['context']) =>
    allowed(withCondition(Condition), { context });

  test('string operators: exact, case-insensitive, wildcard, and their negations', () => {
    expect(holds({ StringEquals: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'ias' })).toBe(true);
    expect(holds({ StringEquals: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'IAS' })).toBe(false);
    expect(holds({ StringNotEquals: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'IAS' })).toBe(true);
    expect(holds({ StringEqualsIgnoreCase: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'IAS' })).toBe(true);
    expect(holds({ StringNotEqualsIgnoreCase: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'IAS' })).toBe(false);
    expect(holds({ StringLike: { 's3:prefix': 'cases/*' } }, { 's3:prefix': 'cases/42/' })).toBe(true);
    expect(holds({ StringLike: { 's3:prefix': 'cases/?' } }, { 's3:prefix': 'cases/42' })).toBe(false);
    expect(holds({ StringNotLike: { 's3:prefix': 'cases/*' } }, { 's3:prefix': 'other/' })).toBe(true);
    expect(holds({ StringNotLike: { 's3:prefix': 'cases/*' } }, { 's3:prefix': 'cases/1' })).toBe(false);
  });

  test("a key's listed values are ORed; keys and operators are ANDed", () => {
    const Condition = {
      StringEquals: { 'aws:PrincipalTag/team': ['ias', 'ops'], 'aws:RequestedRegion': 'us-east-1' },
      Bool: { 'aws:SecureTransport': 'true' },
    };
    const context = { 'aws:PrincipalTag/team': 'ops', 'aws:RequestedRegion': 'us-east-1', 'aws:SecureTransport': 'true' };
    expect(holds(Condition, context)).toBe(true);
    expect(holds(Condition, { ...context, 'aws:RequestedRegion': 'us-west-2' })).toBe(false);
    expect(holds(Condition, { ...context, 'aws:SecureTransport': 'false' })).toBe(false);
    expect(holds(Condition, { ...context, 'aws:PrincipalTag/team': 'legal' })).toBe(false);
  });

  test('condition key names are case-insensitive, values are not', () => {
    expect(holds({ StringEquals: { 'AWS:RequestedRegion': 'us-east-1' } }, { 'aws:requestedregion': 'us-east-1' })).toBe(true);
  });

  test('ARN operators match each ARN component, wildcards allowed in both forms', () => {
    const sourceArn = 'arn:aws:sqs:us-east-1:000000000000:ias-generation';
    expect(holds({ ArnEquals: { 'aws:SourceArn': sourceArn } }, { 'aws:SourceArn': sourceArn })).toBe(true);
    expect(holds({ ArnLike: { 'aws:SourceArn': 'arn:aws:sqs:*:000000000000:ias-*' } }, { 'aws:SourceArn': sourceArn })).toBe(true);
    expect(holds({ ArnEquals: { 'aws:SourceArn': 'arn:aws:sqs:*:000000000000:ias-*' } }, { 'aws:SourceArn': sourceArn })).toBe(true);
    // `*` in the region component does not reach into the account
    expect(holds({ ArnLike: { 'aws:SourceArn': 'arn:aws:sqs:*:ias-generation' } }, { 'aws:SourceArn': sourceArn })).toBe(false);
    expect(holds({ ArnLike: { 'aws:SourceArn': 'arn:aws:sqs:*:*:*' } }, { 'aws:SourceArn': 'not-an-arn' })).toBe(false);
    expect(holds({ ArnNotEquals: { 'aws:SourceArn': sourceArn } }, { 'aws:SourceArn': `${sourceArn}-dlq` })).toBe(true);
    expect(holds({ ArnNotLike: { 'aws:SourceArn': 'arn:aws:sqs:*:*:ias-*' } }, { 'aws:SourceArn': sourceArn })).toBe(false);
  });

  test('Bool compares true/false, including the enforceSSL deny CDK writes', () => {
    const enforceSsl = deny({ Action: 'sqs:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    expect(evaluate([allow()], request({ context: { 'aws:SecureTransport': 'false' } }), [enforceSsl]).allowed).toBe(false);
    expect(evaluate([allow()], request({ context: { 'aws:SecureTransport': 'true' } }), [enforceSsl]).allowed).toBe(true);
    expect(holds({ Bool: { 'aws:SecureTransport': true } }, { 'aws:SecureTransport': 'TRUE' })).toBe(true);
  });

  test('numeric operators compare numbers, never strings', () => {
    const context = { 's3:max-keys': '10' };
    expect(holds({ NumericEquals: { 's3:max-keys': '10.0' } }, context)).toBe(true);
    expect(holds({ NumericNotEquals: { 's3:max-keys': 10 } }, context)).toBe(false);
    expect(holds({ NumericLessThan: { 's3:max-keys': '9' } }, context)).toBe(false);
    expect(holds({ NumericLessThan: { 's3:max-keys': '100' } }, context)).toBe(true);
    expect(holds({ NumericLessThanEquals: { 's3:max-keys': '10' } }, context)).toBe(true);
    expect(holds({ NumericGreaterThan: { 's3:max-keys': '9' } }, context)).toBe(true);
    expect(holds({ NumericGreaterThanEquals: { 's3:max-keys': '11' } }, context)).toBe(false);
    expect(holds({ NumericEquals: { 's3:max-keys': '10' } }, { 's3:max-keys': 'ten' })).toBe(false);
    expect(holds({ NumericEquals: { 's3:max-keys': '0' } }, { 's3:max-keys': '' })).toBe(false);
  });

  test('a missing key: false, but true for negated operators and with IfExists', () => {
    expect(holds({ StringEquals: { 'aws:PrincipalTag/team': 'ias' } })).toBe(false);
    expect(holds({ NumericLessThan: { 's3:max-keys': '100' } })).toBe(false);
    expect(holds({ Bool: { 'aws:SecureTransport': 'true' } })).toBe(false);
    // AWS: "If the policy condition requires that the key is not matched, such as StringNotLike or
    // ArnNotLike, and the right key is not present, the condition is true"
    expect(holds({ StringNotLike: { 'aws:PrincipalTag/team': 'ias' } })).toBe(true);
    expect(holds({ ArnNotEquals: { 'aws:SourceArn': QUEUE } })).toBe(true);
    expect(holds({ StringEqualsIfExists: { 'aws:PrincipalTag/team': 'ias' } })).toBe(true);
    expect(holds({ NumericLessThanIfExists: { 's3:max-keys': '100' } })).toBe(true);
    expect(holds({ BoolIfExists: { 'aws:SecureTransport': 'true' } })).toBe(true);
    expect(holds({ StringEqualsIfExists: { 'aws:PrincipalTag/team': 'ias' } }, { 'aws:PrincipalTag/team': 'ops' })).toBe(false);
  });

  test('Null tests presence: true means absent, false means present', () => {
    expect(holds({ Null: { 'aws:PrincipalTag/team': 'true' } })).toBe(true);
    expect(holds({ Null: { 'aws:PrincipalTag/team': 'true' } }, { 'aws:PrincipalTag/team': 'ias' })).toBe(false);
    expect(holds({ Null: { 'aws:PrincipalTag/team': false } }, { 'aws:PrincipalTag/team': 'ias' })).toBe(true);
    expect(holds({ Null: { 'aws:PrincipalTag/team': 'false' } }, { 'aws:PrincipalTag/team': undefined })).toBe(false);
    expect(holds({ Null: { 'aws:TagKeys': 'true' } }, { 'aws:TagKeys': [] })).toBe(true);
  });

  test('ForAnyValue: some request value matches; an absent key does not', () => {
    const Condition = { 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['case', 'owner'] } };
    expect(holds(Condition, { 'aws:TagKeys': ['other', 'owner'] })).toBe(true);
    expect(holds(Condition, { 'aws:TagKeys': ['other'] })).toBe(false);
    expect(holds(Condition)).toBe(false);
    expect(holds({ 'ForAnyValue:StringEqualsIfExists': { 'aws:TagKeys': 'case' } })).toBe(true);
    expect(holds({ 'ForAnyValue:StringNotLike': { 'aws:TagKeys': 'case*' } }, { 'aws:TagKeys': ['case-1', 'x'] })).toBe(true);
  });

  test('ForAllValues: every request value matches; an absent key holds (the AWS pitfall)', () => {
    const Condition = { 'ForAllValues:StringLike': { 'aws:TagKeys': ['case*', 'owner'] } };
    expect(holds(Condition, { 'aws:TagKeys': ['case-1', 'owner'] })).toBe(true);
    expect(holds(Condition, { 'aws:TagKeys': ['case-1', 'other'] })).toBe(false);
    expect(holds(Condition)).toBe(true);
    // AWS's own example: Deny when ForAllValues:StringNotLike key1* (table in "multivalued context keys")
    const notLike = { 'ForAllValues:StringNotLike': { 'aws:TagKeys': 'key1*' } };
    expect(holds(notLike, { 'aws:TagKeys': ['key1:legal'] })).toBe(false);
    expect(holds(notLike, { 'aws:TagKeys': ['key1:hr', 'key1:personnel'] })).toBe(false);
    expect(holds(notLike, { 'aws:TagKeys': ['key2:audit'] })).toBe(true);
    expect(holds(notLike)).toBe(true);
  });

  test('a single-valued operator over several request values: any matches, negated when none does', () => {
    expect(holds({ StringEquals: { 'aws:TagKeys': 'owner' } }, { 'aws:TagKeys': ['case', 'owner'] })).toBe(true);
    expect(holds({ StringNotEquals: { 'aws:TagKeys': 'owner' } }, { 'aws:TagKeys': ['case', 'owner'] })).toBe(false);
  });

  test.each([
    ['DateLessThan'],
    ['IpAddress'],
    ['NotIpAddress'],
    ['BinaryEquals'],
    ['NullIfExists'],
    ['ForAnyValue:Null'],
    ['StringEqualz'],
  ])('an unsupported operator (%s) throws, naming it', (operator) => {
    expect(() => holds({ [operator]: { 'aws:CurrentTime': '2030-01-01T00:00:00Z' } })).toThrow(operator);
  });

  test('an unsupported operator throws only when the decision depends on it', () => {
    const unmodelled = allow({ Condition: { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } } });
    // another Allow decides it
    expect(allowed([unmodelled, allow()])).toBe(true);
    // an explicit Deny decides it
    expect(allowed([unmodelled, deny()])).toBe(false);
    // a statement for another action is never consulted
    expect(allowed([allow({ Action: 'sqs:Purge*', Condition: { DateLessThan: { 'aws:CurrentTime': 'x' } } }), allow()])).toBe(true);
    expect(() => allowed([unmodelled])).toThrow('IpAddress');
    const unmodelledDeny = deny({ Condition: { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } } });
    expect(() => allowed([allow(), unmodelledDeny])).toThrow('IpAddress');
  });

  test('a policy variable in a condition value is refused', () => {
    expect(() => holds({ StringEquals: { 'aws:PrincipalTag/team': '${aws:username}' } }, { 'aws:PrincipalTag/team': 'x' })).toThrow(
      /policy variables/,
    );
  });
});

describe('evaluate: resource policies', () => {
  const queuePolicy = (Principal: unknown, statement: Partial<PolicyStatement> = {}): PolicyStatement[] => [
    { Effect: 'Allow', Principal, Action: 'sqs:SendMessage', Resource: QUEUE, ...statement },
  ];
  const allowedBy = (Principal: unknown, principalArn = PRINCIPAL) =>
    evaluate([], request({ principalArn }), queuePolicy(Principal)).allowed;

  test.each([
    ['"*"', true, '*'],
    ['{AWS: "*"}', true, { AWS: '*' }],
    ['the role ARN', true, { AWS: ROLE_ARN }],
    ['the role ARN with a path', true, { AWS: `arn:aws:iam::${ACCOUNT}:role/service/ias-generate-role` }],
    ['a list holding the role ARN', true, { AWS: [`arn:aws:iam::${ACCOUNT}:role/other`, ROLE_ARN] }],
    ['the account root', true, { AWS: `arn:aws:iam::${ACCOUNT}:root` }],
    ['the bare account id', true, { AWS: ACCOUNT }],
    ['the session ARN itself', true, { AWS: PRINCIPAL }],
    ['another role', false, { AWS: `arn:aws:iam::${ACCOUNT}:role/ias-other-role` }],
    ['the same role name in another account', false, { AWS: 'arn:aws:iam::111122223333:role/ias-generate-role' }],
    ['another account root', false, { AWS: 'arn:aws:iam::111122223333:root' }],
    ['another bare account id', false, { AWS: '111122223333' }],
    ['a service principal', false, { Service: 'lambda.amazonaws.com' }],
    ['a service principal list', false, { Service: ['sqs.amazonaws.com', 's3.amazonaws.com'] }],
    ['a federated principal', false, { Federated: 'cognito-identity.amazonaws.com' }],
  ])('Principal %s → allowed %s', (_name, expected, principal) => {
    expect(allowedBy(principal)).toBe(expected);
  });

  test.each([
    ['its Service', true, { Service: 'events.amazonaws.com' }],
    ['a Service list holding it', true, { Service: ['sqs.amazonaws.com', 'events.amazonaws.com'] }],
    ['another Service', false, { Service: 'lambda.amazonaws.com' }],
    ['"*"', true, '*'],
    ['{AWS: "*"}', true, { AWS: '*' }],
    ['the account root', false, { AWS: `arn:aws:iam::${ACCOUNT}:root` }],
    ['the bare account id', false, { AWS: ACCOUNT }],
  ])('a service acting on a grant (events.amazonaws.com): Principal %s → allowed %s', (_name, expected, principal) => {
    expect(allowedBy(principal, 'events.amazonaws.com')).toBe(expected);
  });

  test("a service's grant for one source only (aws:SourceArn), as an EventBridge rule's target queue has it", () => {
    const rule = `arn:aws:events:us-east-1:${ACCOUNT}:rule/files-arriving`;
    const policy = queuePolicy({ Service: 'events.amazonaws.com' }, { Condition: { ArnEquals: { 'aws:SourceArn': rule } } });
    const from = (sourceArn: string) =>
      evaluate([], request({ principalArn: 'events.amazonaws.com', context: { 'aws:SourceArn': sourceArn } }), policy).allowed;
    expect([from(rule), from(`${rule}-other`)]).toEqual([true, false]);
  });

  test('a role ARN does not name a user of the same name', () => {
    expect(allowedBy({ AWS: ROLE_ARN }, `arn:aws:iam::${ACCOUNT}:user/ias-generate-role`)).toBe(false);
  });

  test('a resource statement without Resource governs the resource it is attached to', () => {
    expect(evaluate([], request(), queuePolicy('*', { Resource: undefined })).allowed).toBe(true);
  });

  test('a resource statement without Principal or NotPrincipal applies to no one', () => {
    expect(evaluate([], request(), [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: QUEUE }]).allowed).toBe(false);
  });

  test('NotPrincipal applies to every principal but the listed ones', () => {
    const denyOthers: PolicyStatement = { Effect: 'Deny', NotPrincipal: { AWS: ROLE_ARN }, Action: 'sqs:*', Resource: QUEUE };
    expect(evaluate([allow()], request(), [denyOthers]).allowed).toBe(true);
    expect(evaluate([allow()], request({ principalArn: `arn:aws:sts::${ACCOUNT}:assumed-role/other/fn` }), [denyOthers]).allowed).toBe(
      false,
    );
  });

  test('the identity policy ignores Principal; either policy may allow in the same account', () => {
    expect(allowed([allow({ Principal: { Service: 'lambda.amazonaws.com' } })])).toBe(true);
    expect(evaluate([allow()], request(), queuePolicy({ AWS: `arn:aws:iam::${ACCOUNT}:role/other` })).allowed).toBe(true);
  });

  test('an Allow in the resource policy for another action does not allow', () => {
    expect(evaluate([], request(), queuePolicy('*', { Action: 'sqs:ReceiveMessage' })).allowed).toBe(false);
  });
});

describe('statementsOf', () => {
  test('reads one statement or a list from a policy document', () => {
    const statement = allow();
    expect(statementsOf({ Version: '2012-10-17', Statement: statement })).toEqual([statement]);
    expect(statementsOf({ Version: '2012-10-17', Statement: [statement, deny()] })).toEqual([statement, deny()]);
  });

  test('refuses what is not a policy document', () => {
    expect(() => statementsOf(null)).toThrow(/no Statement/);
    expect(() => statementsOf({ Version: '2012-10-17' })).toThrow(/no Statement/);
    expect(() => statementsOf({ Statement: [{ Action: '*' }] })).toThrow(/Effect/);
  });
});

describe('wildcard matching (properties)', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'B', ':', '/', '-', '.', '1'), maxLength: 20 });

  test('a pattern without wildcards matches exactly itself', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(matchesResource(a, b)).toBe(a === b);
        expect(matchesResource(a, a)).toBe(true);
      }),
    );
  });

  test('`*` matches everything, and any run before or after a literal', () => {
    fc.assert(
      fc.property(text, text, (prefix, rest) => {
        expect(matchesResource('*', prefix + rest)).toBe(true);
        expect(matchesResource(`${prefix}*`, prefix + rest)).toBe(true);
        expect(matchesResource(`*${rest}`, prefix + rest)).toBe(true);
      }),
    );
  });

  test('`?` matches exactly one character', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(matchesResource('?'.repeat(value.length), value)).toBe(true);
        expect(matchesResource('?'.repeat(value.length + 1), value)).toBe(false);
      }),
    );
  });

  test('glob matching agrees with the equivalent regular expression', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'B', ':', '/', '*', '?'), maxLength: 8 });
    const toRegExp = (p: string) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\/:]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        's',
      );
    fc.assert(
      fc.property(pattern, text, (p, value) => {
        expect(matchesResource(p, value)).toBe(toRegExp(p).test(value));
      }),
    );
  });

  test('actions match case-insensitively whatever the case of either side', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', 'c', ':', '*'), maxLength: 10 }), (p) => {
        const value = p.replace(/\*/g, 'x');
        expect(matchesAction(p.toUpperCase(), value.toLowerCase())).toBe(matchesAction(p, value));
      }),
    );
  });
});
