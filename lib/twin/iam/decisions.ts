/**
 * Every IAM decision the twin makes, in one place:
 * - a function's calls at the AWS edge and its sign-ins at the database proxy (rds-db:connect): its role
 *   session's synthesized policy, with the resource's own policy where it has one, in the request context of a
 *   role session over TLS; each of these is recorded (`npm run iam-report`) and a denial is logged;
 * - the service principals' invocations of a function: API Gateway and Cognito by the function's resource policy
 *   (AWS::Lambda::Permission), EventBridge Scheduler by the schedule's role policy;
 * - EventBridge's deliveries of a rule's events to an SQS target, by the queue's resource policy.
 * Who signed a request (./sigv4.ts, ./rds-auth-token.ts) is found by the edge and the proxy; what is decided is here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_ROOT } from '../assembly/assembly';
import type { PlanFunction, PlanQueue, PlanRule, PlanSchedule, TwinPlan } from '../assembly/plan';
import { evaluate, matchesResource, type PolicyStatement } from './policy';
import type { RecordedCall } from './report';
import type { AwsService } from './requests';
import type { IssuedKey } from './sigv4';

/** Who signs with an access key: a function's role session (its secret and session token verify what it presigns). */
export interface RoleSession extends IssuedKey {
  principalArn: string;
  /** the function (PlanFunction.id) whose role this is */
  functionId: string;
  policy: PolicyStatement[];
}

/** A function's temporary credentials, as its environment holds them. */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** One recorded decision on a function's AWS call, or on its sign-in at the database proxy (service `rds-db`). */
export interface RecordedDecision extends RecordedCall {
  service: AwsService | 'rds-db';
  at: Date;
}

/**
 * Where the twins of a test run record every function's AWS calls (one JSON object per line) for
 * `npm run iam-report`, when RECORD_CALLS_ENV is `1` (test/support/env.ts sets it; global-setup empties the file).
 */
export const IAM_CALLS_FILE = join(CACHE_ROOT, 'iam-calls.jsonl');
const RECORD_CALLS_ENV = 'TWIN_RECORD_CALLS';

/** The decisions of one twin, kept; and appended to IAM_CALLS_FILE in a test run (marked where a test changed the deployment). */
export const decisionRecord = (options: { changedDeployment: boolean }) => {
  const decisions: RecordedDecision[] = [];
  const recording = process.env[RECORD_CALLS_ENV] === '1';
  return {
    record: (decision: RecordedDecision) => {
      decisions.push(decision);
      if (recording)
        appendFileSync(
          IAM_CALLS_FILE,
          `${JSON.stringify({ ...decision, ...(options.changedDeployment && { changedDeployment: true }) })}\n`,
        );
    },
    all: () => [...decisions],
  };
};

/** The decision on `rds-db:connect` for the role session an access key belongs to; undefined when it belongs to none. */
export type DatabaseSignInDecider = (
  accessKeyId: string,
  permission: { action: string; resource: string },
) => { allowed: boolean } | undefined;

/** Temporary credentials of a function's role session: stable per function, so logs and reports can name them. */
const credentialsOf = (fn: PlanFunction): Credentials => {
  const digest = createHash('sha256').update(`${fn.stack}/${fn.logicalId}`).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return {
    accessKeyId: `ASIA${Array.from(digest.subarray(0, 16), (b) => alphabet[b % 32]).join('')}`,
    secretAccessKey: digest.toString('base64'),
    sessionToken: randomBytes(32).toString('base64'),
  };
};

/** Each function's role session: its credentials by function, and the sessions by access key. */
export const roleSessions = (plan: TwinPlan) => {
  const credentials = new Map(plan.functions.map((fn) => [fn.id, credentialsOf(fn)]));
  const sessions = new Map<string, RoleSession>(
    plan.functions.map((fn) => {
      const own = credentials.get(fn.id)!;
      return [
        own.accessKeyId,
        {
          functionId: fn.id,
          principalArn: `arn:aws:sts::${plan.account}:assumed-role/${fn.roleName}/${fn.functionName}`,
          policy: fn.policy,
          secretAccessKey: own.secretAccessKey,
          sessionToken: own.sessionToken,
        },
      ];
    }),
  );
  return { credentials, sessions };
};

/**
 * A function role's decision on one permission, as IAM makes it for a call over TLS from that role's
 * session (with the resource's own policy, if it has one).
 */
const decideForSession = (
  session: RoleSession,
  account: string,
  permission: { action: string; resource: string },
  resourcePolicy?: PolicyStatement[],
) =>
  evaluate(
    session.policy,
    {
      principalArn: session.principalArn,
      ...permission,
      context: { 'aws:SecureTransport': 'true', 'aws:PrincipalAccount': account, 'aws:PrincipalArn': session.principalArn },
    },
    resourcePolicy,
  );

/** rds-db:connect decided as the edge decides a function's calls, recorded with them. */
export const policyAuthorizer =
  (
    sessions: ReadonlyMap<string, RoleSession>,
    account: string,
    record: (decision: RecordedDecision) => void,
    log: (line: string) => void = () => undefined,
  ): DatabaseSignInDecider =>
  (accessKeyId, { action, resource }) => {
    const caller = sessions.get(accessKeyId);
    if (!caller) return undefined;
    const { allowed } = decideForSession(caller, account, { action, resource });
    record({ functionId: caller.functionId, service: 'rds-db', action, resource, allowed, at: new Date() });
    if (!allowed) log(`[iam] ${caller.functionId}: ${action} on ${resource} denied`);
    return { allowed };
  };

/** The twin's IAM over one deployment. */
export const deploymentIam = (options: {
  plan: TwinPlan;
  sessions: ReadonlyMap<string, RoleSession>;
  record: (decision: RecordedDecision) => void;
  log: (line: string) => void;
}) => {
  const { plan, sessions, record, log } = options;
  const { account, region } = plan;
  const resourcePolicies = new Map<string, PolicyStatement[] | undefined>([
    ...plan.queues.map((q) => [q.arn, q.policy] as const),
    ...plan.buckets.map((b) => [b.arn, b.policy] as const),
    ...plan.secrets.map((s) => [s.arn, s.policy] as const),
  ]);
  /** the resource-based policy of an ARN (a queue, a bucket or one of its objects, a secret), if it has one */
  const resourcePolicy = (arn: string) => resourcePolicies.get(arn) ?? resourcePolicies.get(arn.replace(/\/.*$/, ''));
  return {
    /** a function's call at the AWS edge: its role's decision with the resource's policy, recorded */
    decideCall: (caller: RoleSession, service: AwsService, { action, resource }: { action: string; resource: string }) => {
      const decision = decideForSession(caller, account, { action, resource }, resourcePolicy(resource));
      record({ functionId: caller.functionId, service, action, resource, allowed: decision.allowed, at: new Date() });
      if (!decision.allowed) log(`[iam] ${caller.functionId}: ${action} on ${resource} denied (${decision.reason})`);
      return decision;
    },
    decideDatabaseSignIn: policyAuthorizer(sessions, account, record, log),
    /** the IAM resource a client signs in to the database proxy as `user` */
    databaseUser: (user: string) => `arn:aws:rds-db:${region}:${account}:dbuser:${plan.database.proxyResourceId}/${user}`,
    /**
     * Whether a service principal may invoke a function: its resource policy (AWS::Lambda::Permission) names the
     * principal, for this source where the permission names one (API Gateway: the route's execute-api ARN).
     */
    mayInvoke: (fn: PlanFunction, principal: string, sourceArn?: string) =>
      fn.invokers.some(
        (i) => i.principal === principal && (!i.sourceArn || (sourceArn !== undefined && matchesResource(i.sourceArn, sourceArn))),
      ),
    /** EventBridge Scheduler invokes the target with the schedule's role: it must allow lambda:InvokeFunction on it */
    scheduleMayInvoke: (schedule: PlanSchedule, target: PlanFunction) =>
      evaluate(schedule.policy, { principalArn: schedule.roleArn, action: 'lambda:InvokeFunction', resource: target.arn }).allowed,
  };
};

export type DeploymentIam = ReturnType<typeof deploymentIam>;

/** Whether the queue's resource policy lets EventBridge send it a rule's events (aws:SourceArn is the rule). */
export const eventBridgeSendDecision = (rule: PlanRule, queue: PlanQueue, account: string) =>
  evaluate(
    [],
    {
      principalArn: 'events.amazonaws.com',
      action: 'sqs:SendMessage',
      resource: queue.arn,
      context: { 'aws:SourceArn': rule.arn, 'aws:SourceAccount': account, 'aws:SecureTransport': 'true' },
    },
    queue.policy,
  );
