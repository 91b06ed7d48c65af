/**
 * IAM policy evaluation for one principal in one account, as AWS documents it for a request within
 * the same account: an explicit Deny in the identity or the resource policy wins; otherwise an Allow
 * in either allows (a resource-policy Allow only when its Principal names the caller); otherwise the
 * request is implicitly denied.
 *
 * Modelled: Action/NotAction, Resource/NotResource, Principal/NotPrincipal (resource policies), and
 * the String, Arn, Bool, Null and Numeric condition operators with IfExists and the ForAnyValue: /
 * ForAllValues: set prefixes. Anything else a decision would depend on (another condition operator,
 * a policy variable such as `${aws:username}`) throws rather than guessing: the twin must refuse or
 * allow exactly as AWS would, or say it cannot.
 */

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: unknown;
  NotPrincipal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

export interface AuthorizationRequest {
  /**
   * e.g. arn:aws:sts::000000000000:assumed-role/RoleName/FunctionName; or a service principal such as
   * events.amazonaws.com when an AWS service acts on a resource policy's grant (it has no identity policy)
   */
  principalArn: string;
  /** e.g. sqs:SendMessage */
  action: string;
  /** an ARN, or `*` for actions that name no resource */
  resource: string;
  /** condition keys, e.g. { 'aws:SecureTransport': 'true' }; names are case-insensitive as in AWS */
  context?: Record<string, string | string[] | undefined>;
}

export type Decision =
  | { allowed: true; by: PolicyStatement }
  | { allowed: false; reason: 'explicit-deny' | 'no-allow'; by?: PolicyStatement };

type PolicyKind = 'identity' | 'resource';

const asList = (value: string | string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** `*` matches any run of characters (including none), `?` exactly one; everything else literally. */
export const globMatches = (pattern: string, value: string): boolean => {
  let p = 0;
  let v = 0;
  let star = -1;
  let starValue = 0;
  while (v < value.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === value[v])) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      starValue = v;
    } else if (star >= 0) {
      // let the last `*` swallow one more character and retry from there
      p = star + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
};

/** Policy variables would need the request's identity context substituted; none is modelled. */
const rejectPolicyVariables = (pattern: string): void => {
  if (pattern.includes('${')) throw new Error(`IAM policy variables are not supported by the twin: ${pattern}`);
};

/** Action names are case-insensitive (`SQS:sendmessage` is `sqs:SendMessage`). */
export const matchesAction = (pattern: string, action: string): boolean => globMatches(pattern.toLowerCase(), action.toLowerCase());

/** Resource ARNs are case-sensitive; `*` spans `/` and `:`. */
export const matchesResource = (pattern: string, resource: string): boolean => {
  rejectPolicyVariables(pattern);
  return globMatches(pattern, resource);
};

interface Arn {
  partition: string;
  service: string;
  region: string;
  account: string;
  resource: string;
}

const parseArn = (value: string): Arn | undefined => {
  const parts = value.split(':');
  if (parts.length < 6 || parts[0] !== 'arn') return undefined;
  const [, partition = '', service = '', region = '', account = ''] = parts;
  return { partition, service, region, account, resource: parts.slice(5).join(':') };
};

/** An ARN split into its six colon-delimited components (the last keeps any further colons). */
const arnComponents = (value: string): string[] | undefined => {
  const arn = parseArn(value);
  return arn && ['arn', arn.partition, arn.service, arn.region, arn.account, arn.resource];
};

/** ArnEquals and ArnLike are the same test in AWS: each ARN component matched on its own, wildcards allowed. */
const arnMatches = (contextValue: string, policyValue: string): boolean => {
  const actual = arnComponents(contextValue);
  const wanted = arnComponents(policyValue);
  return !!actual && !!wanted && wanted.every((pattern, i) => globMatches(pattern, actual[i]!));
};

const ACCOUNT_ID = /^\d{12}$/;

/** One entry of a Principal's `AWS` list against the caller. */
const awsPrincipalMatches = (entry: string, principalArn: string): boolean => {
  if (entry === '*' || entry === principalArn) return true;
  const caller = parseArn(principalArn);
  if (!caller) return false;
  if (ACCOUNT_ID.test(entry)) return caller.account === entry;
  const named = parseArn(entry);
  if (!named || named.partition !== caller.partition || named.account !== caller.account) return false;
  if (named.service === 'iam' && named.resource === 'root') return true;
  // a role ARN names every session of the role; the session ARN carries the role name without its path
  if (named.service === 'iam' && named.resource.startsWith('role/') && caller.service === 'sts') {
    const roleName = named.resource.split('/').at(-1);
    const [kind, sessionRole] = caller.resource.split('/');
    return kind === 'assumed-role' && sessionRole === roleName;
  }
  return false;
};

/** A service principal, such as events.amazonaws.com, rather than an IAM principal's ARN. */
const isServicePrincipal = (principal: string): boolean => !principal.startsWith('arn:') && principal.endsWith('.amazonaws.com');

/**
 * `"*"`, `{AWS: ...}` (whose `*` is every principal, as `"*"` is), `{Service: ...}` naming the calling service;
 * Federated and CanonicalUser principals never name an IAM role session or a service.
 */
const principalMatches = (principal: unknown, principalArn: string): boolean => {
  if (principal === '*') return true;
  if (typeof principal !== 'object' || principal === null) return false;
  const entriesOf = (value: unknown) => (typeof value === 'string' ? [value] : Array.isArray(value) ? value : []);
  const { AWS: aws, Service: service } = principal as Record<string, unknown>;
  if (isServicePrincipal(principalArn) && entriesOf(service).includes(principalArn)) return true;
  return entriesOf(aws).some(
    (entry) =>
      typeof entry === 'string' && (entry === '*' || (!isServicePrincipal(principalArn) && awsPrincipalMatches(entry, principalArn))),
  );
};

type Compare = (contextValue: string, policyValue: string) => boolean;

const numeric =
  (test: (a: number, b: number) => boolean): Compare =>
  (contextValue, policyValue) => {
    const a = Number(contextValue);
    const b = Number(policyValue);
    return contextValue.trim() !== '' && policyValue.trim() !== '' && !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
  };

const stringEquals: Compare = (a, b) => a === b;
const stringEqualsIgnoreCase: Compare = (a, b) => a.toLowerCase() === b.toLowerCase();
const stringLike: Compare = (a, b) => globMatches(b, a);
const numericEquals = numeric((a, b) => a === b);

/** Each supported operator: how one context value compares with one policy value, and whether it is negated. */
const OPERATORS: Record<string, { compare: Compare; negated: boolean }> = {
  StringEquals: { compare: stringEquals, negated: false },
  StringNotEquals: { compare: stringEquals, negated: true },
  StringEqualsIgnoreCase: { compare: stringEqualsIgnoreCase, negated: false },
  StringNotEqualsIgnoreCase: { compare: stringEqualsIgnoreCase, negated: true },
  StringLike: { compare: stringLike, negated: false },
  StringNotLike: { compare: stringLike, negated: true },
  ArnEquals: { compare: arnMatches, negated: false },
  ArnLike: { compare: arnMatches, negated: false },
  ArnNotEquals: { compare: arnMatches, negated: true },
  ArnNotLike: { compare: arnMatches, negated: true },
  Bool: { compare: stringEqualsIgnoreCase, negated: false },
  NumericEquals: { compare: numericEquals, negated: false },
  NumericNotEquals: { compare: numericEquals, negated: true },
  NumericLessThan: { compare: numeric((a, b) => a < b), negated: false },
  NumericLessThanEquals: { compare: numeric((a, b) => a <= b), negated: false },
  NumericGreaterThan: { compare: numeric((a, b) => a > b), negated: false },
  NumericGreaterThanEquals: { compare: numeric((a, b) => a >= b), negated: false },
};

const OPERATOR_KEY = /^(?:(ForAnyValue|ForAllValues):)?(.+?)(IfExists)?$/;

const policyValues = (operator: string, key: string, value: unknown): string[] => {
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => {
    if (typeof v === 'string') {
      rejectPolicyVariables(v);
      return v;
    }
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw new Error(`IAM condition ${operator} on ${key} has a value that is not a string, number or boolean`);
  });
};

/** Context keys are case-insensitive; an empty list counts as absent, as AWS treats an empty multi-valued key. */
const contextValues = (context: AuthorizationRequest['context'], key: string): string[] | undefined => {
  const wanted = key.toLowerCase();
  const entry = Object.entries(context ?? {}).find(([name]) => name.toLowerCase() === wanted);
  const values = asList(entry?.[1]);
  return values && values.length > 0 ? values : undefined;
};

const conditionHolds = (operatorKey: string, key: string, value: unknown, context: AuthorizationRequest['context']): boolean => {
  const [, set, base = '', ifExists] = OPERATOR_KEY.exec(operatorKey) ?? [];
  if (base === 'Null' && !set && !ifExists) {
    // Null tests presence only: "true" holds when the key is absent, "false" when it is present
    const absent = contextValues(context, key) === undefined;
    return policyValues(operatorKey, key, value).some((w) => (w.toLowerCase() === 'true') === absent);
  }
  const operator = OPERATORS[base];
  if (!operator) throw new Error(`Unsupported IAM condition operator: ${operatorKey}`);
  const wanted = policyValues(operatorKey, key, value);
  const actual = contextValues(context, key);
  if (actual === undefined) {
    // AWS: ForAllValues holds over an absent key, ForAnyValue does not; a plain operator is false when
    // the key is absent unless negated (StringNotLike and the like hold); IfExists makes all of them hold
    if (set === 'ForAllValues') return true;
    if (set === 'ForAnyValue') return !!ifExists;
    return !!ifExists || operator.negated;
  }
  const matchesPolicy = (v: string) => wanted.some((w) => operator.compare(v, w));
  const valueHolds = (v: string) => matchesPolicy(v) !== operator.negated;
  if (set === 'ForAllValues') return actual.every(valueHolds);
  if (set === 'ForAnyValue') return actual.some(valueHolds);
  // a single-valued operator: positive when any context value matches, negated when none does
  return operator.negated ? actual.every(valueHolds) : actual.some(valueHolds);
};

const conditionsHold = (statement: PolicyStatement, context: AuthorizationRequest['context']): boolean =>
  Object.entries(statement.Condition ?? {}).every(([operatorKey, keys]) => {
    if (typeof keys !== 'object' || keys === null) throw new Error(`IAM condition ${operatorKey} is not an object of condition keys`);
    return Object.entries(keys).every(([key, value]) => conditionHolds(operatorKey, key, value, context));
  });

const actionMatches = (statement: PolicyStatement, action: string): boolean => {
  const actions = asList(statement.Action);
  if (actions) return actions.some((p) => matchesAction(p, action));
  const notActions = asList(statement.NotAction);
  return !!notActions && !notActions.some((p) => matchesAction(p, action));
};

const resourceMatches = (statement: PolicyStatement, resource: string, kind: PolicyKind): boolean => {
  const resources = asList(statement.Resource);
  if (resources) return resources.some((p) => matchesResource(p, resource));
  const notResources = asList(statement.NotResource);
  if (notResources) return !notResources.some((p) => matchesResource(p, resource));
  // a resource policy without Resource governs the resource it is attached to
  return kind === 'resource';
};

const principalApplies = (statement: PolicyStatement, principalArn: string, kind: PolicyKind): boolean => {
  if (kind === 'identity') return true;
  if (statement.Principal !== undefined) return principalMatches(statement.Principal, principalArn);
  if (statement.NotPrincipal !== undefined) return !principalMatches(statement.NotPrincipal, principalArn);
  return false;
};

const applies = (statement: PolicyStatement, kind: PolicyKind, request: AuthorizationRequest): boolean =>
  principalApplies(statement, request.principalArn, kind) &&
  actionMatches(statement, request.action) &&
  resourceMatches(statement, request.resource, kind) &&
  conditionsHold(statement, request.context);

/**
 * The first statement of `effect` that applies. A statement whose applicability cannot be decided
 * (unsupported operator, policy variable) throws only if no other statement of that effect applies,
 * so a decision never rests on what the twin cannot model and never ignores it either.
 */
const firstApplying = (
  statements: { statement: PolicyStatement; kind: PolicyKind }[],
  effect: PolicyStatement['Effect'],
  request: AuthorizationRequest,
): PolicyStatement | undefined => {
  let undecidable: unknown;
  for (const { statement, kind } of statements) {
    if (statement.Effect !== effect) continue;
    try {
      if (applies(statement, kind, request)) return statement;
    } catch (error) {
      undecidable ??= error;
    }
  }
  if (undecidable) throw undecidable;
  return undefined;
};

export function evaluate(
  identityStatements: PolicyStatement[],
  request: AuthorizationRequest,
  resourcePolicy?: PolicyStatement[],
): Decision {
  const statements = [
    ...identityStatements.map((statement) => ({ statement, kind: 'identity' as const })),
    ...(resourcePolicy ?? []).map((statement) => ({ statement, kind: 'resource' as const })),
  ];
  const deny = firstApplying(statements, 'Deny', request);
  if (deny) return { allowed: false, reason: 'explicit-deny', by: deny };
  const allow = firstApplying(statements, 'Allow', request);
  if (allow) return { allowed: true, by: allow };
  return { allowed: false, reason: 'no-allow' };
}

/** The statements of a policy document `{Version, Statement}`, whose Statement is one object or a list. */
export function statementsOf(document: unknown): PolicyStatement[] {
  if (typeof document !== 'object' || document === null || !('Statement' in document)) {
    throw new Error('not an IAM policy document: no Statement');
  }
  const { Statement } = document as { Statement: unknown };
  const statements = Array.isArray(Statement) ? Statement : [Statement];
  return statements.map((statement, i) => {
    const effect = (statement as { Effect?: unknown } | null)?.Effect;
    if (effect !== 'Allow' && effect !== 'Deny') throw new Error(`IAM policy statement ${i} has no Effect Allow or Deny`);
    return statement as PolicyStatement;
  });
}
