/**
 * What the twin runs: the cloud assembly (synthesized again only after a change to the sources), its functions'
 * bundles and the runtime's bootstrap, and the plan resolved from the assembly (./plan.ts).
 */
import { appSourceHash, ensureAssembly, pruneCache, readAssembly } from './assembly';
import { ensureBootstrap, ensureBundles } from './bundles';
import { planFromAssembly, type TwinPlan } from './plan';

export interface DeploymentChanges {
  /** CDK context the stage is synthesized with, on top of cdk.json's (e.g. `{ rateLimits: 'off' }`) */
  context?: Record<string, string>;
  /**
   * a change to the deployment for a test: every queue rendered with this visibility timeout (seconds), so
   * redeliveries come quickly. Shorter than a consumer's timeout, AWS would refuse it at deploy; the synthesized
   * deployment itself is checked for that (./plan.ts), this change is not.
   */
  visibilityTimeoutSeconds?: number;
  /** a change to the rendered deployment before it runs (a test removing a grant, shortening a timeout) */
  transformPlan?: (plan: TwinPlan) => TwinPlan;
}

/** The rendered deployment for these changes: the cloud assembly (synthesized if the sources changed) and the bundles. */
export const renderDeployment = async (changes: DeploymentChanges = {}) => {
  const sourceHash = appSourceHash();
  const corsOrigin = process.env.CORS_ORIGIN;
  const context = { ...(corsOrigin && { corsOrigin }), ...changes.context };
  const [assemblyDir, bootstrapPath] = await Promise.all([ensureAssembly(context, sourceHash), ensureBootstrap()]);
  const assembly = readAssembly(assemblyDir);
  const bundlesDir = await ensureBundles(assembly.functions, sourceHash);
  void pruneCache();
  let plan = planFromAssembly(assembly);
  if (changes.visibilityTimeoutSeconds !== undefined) {
    const seconds = String(changes.visibilityTimeoutSeconds);
    plan = { ...plan, queues: plan.queues.map((q) => ({ ...q, attributes: { ...q.attributes, VisibilityTimeout: seconds } })) };
  }
  return { plan: changes.transformPlan ? changes.transformPlan(plan) : plan, bundlesDir, bootstrapPath };
};
