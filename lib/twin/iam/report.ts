/**
 * Least privilege from observed calls: for each function, the grants of its synthesized policy that no
 * recorded call used (an over-grant, unless the manifest says why it must stay), and the calls that
 * were refused. Pure: the CLI (lib/twin/cli/iam-report.ts) feeds it the plan and the calls the twins of
 * a test run recorded.
 */
import { asList, type PlanFunction } from '../assembly/plan';
import { matchesAction, matchesResource, type PolicyStatement } from './policy';

export interface RecordedCall {
  functionId: string | undefined;
  action: string;
  resource: string;
  allowed: boolean;
}

interface Grant {
  action: string;
  resource: string;
}

export interface FunctionReport {
  functionId: string;
  /** grants no call used, with the manifest's reason to keep each where it gives one */
  unused: (Grant & { justification?: string })[];
  refused: (Grant & { count: number })[];
  used: number;
}

/** Every (action, resource) pair an identity policy allows outright. */
const grantsOf = (policy: PolicyStatement[]): Grant[] =>
  policy
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => asList(s.Action).flatMap((action) => asList(s.Resource).map((resource) => ({ action, resource }))));

export const iamReport = (
  functions: Pick<PlanFunction, 'id' | 'policy'>[],
  calls: RecordedCall[],
  justification: (functionId: string, action: string, resource: string) => string | undefined,
): FunctionReport[] =>
  functions.map((fn) => {
    const mine = calls.filter((c) => c.functionId === fn.id);
    const allowed = mine.filter((c) => c.allowed);
    const grants = grantsOf(fn.policy);
    const usedGrant = (g: Grant) => allowed.some((c) => matchesAction(g.action, c.action) && matchesResource(g.resource, c.resource));
    const refused = new Map<string, Grant & { count: number }>();
    for (const c of mine.filter((call) => !call.allowed)) {
      const key = `${c.action} ${c.resource}`;
      refused.set(key, { action: c.action, resource: c.resource, count: (refused.get(key)?.count ?? 0) + 1 });
    }
    return {
      functionId: fn.id,
      unused: grants
        .filter((g) => !usedGrant(g))
        .map((g) => {
          const why = justification(fn.id, g.action, g.resource);
          return { ...g, ...(why && { justification: why }) };
        }),
      refused: [...refused.values()],
      used: grants.filter(usedGrant).length,
    };
  });

/** Over-grants nobody has justified, and refused calls: what fails the report. */
export const problemsOf = (reports: FunctionReport[]): number =>
  reports.reduce((n, r) => n + r.unused.filter((g) => !g.justification).length + r.refused.length, 0);
