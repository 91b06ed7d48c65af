/**
 * `npm run preflight` (the real CLI code) against the twin's account stand-ins (lib/twin/aws/account.ts), through its
 * AWS edge: a bootstrapped account with model access is ready for dev; each thing a first deploy needs, taken away,
 * is named with what to do — a model's access in the fallback region, a concurrency limit of a new account, the CDK
 * bootstrap, prod's SES identity and production access.
 */
import { neededConcurrency, REQUIRED_BOOTSTRAP_VERSION, runPreflightCli, type CheckResult } from '../../lib/operator/cli-preflight';
import { PROD_EXAMPLE_SETTINGS } from '../../lib/stage-config';
import { AI_REGIONS } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';

export const preflight = (e2e: TwinTest): void => {
  afterEach(() => e2e.twin.account.reset());

  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPreflightCli(
      [...argv, '--json'],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      { twinDir: e2e.twin.twinDir },
    );
    return { code, results: out.length > 0 ? (JSON.parse(out.join('\n')) as CheckResult[]) : [], err: err.join('\n') };
  };
  const failed = (results: CheckResult[]) => results.filter((r) => !r.ok).map((r) => r.name);

  test('a bootstrapped account with model access in both regions is ready for dev', async () => {
    const { code, results } = await run('--stage', 'dev');
    expect(failed(results)).toEqual([]);
    expect(code).toBe(0);
    // the bootstrap, the concurrency, and the three distinct models (the judge is the analysis model) in both regions
    expect(results).toHaveLength(2 + 3 * 2);
    expect(results.map((r) => r.name)).toContain(
      `analysis and judge model us.anthropic.claude-sonnet-4-5-20250929-v1:0 in ${AI_REGIONS.fallback}`,
    );
  });

  test('what a first deploy lacks is named, with what to do: model access, concurrency, bootstrap', async () => {
    const { account } = e2e.twin;
    account.set({
      modelAccessRevoked: [`${AI_REGIONS.fallback} anthropic.claude-haiku-4-5-20251001-v1:0`],
      lambdaConcurrency: 10,
      bootstrapVersion: undefined,
    });
    const { code, results } = await run('--stage', 'dev');
    expect(code).toBe(1);
    const byName = new Map(results.map((r) => [r.name, r]));
    expect(failed(results).sort()).toEqual(
      [
        `CDK bootstrap in ${AI_REGIONS.primary}`,
        `Lambda concurrency in ${AI_REGIONS.primary}`,
        `quality model us.anthropic.claude-haiku-4-5-20251001-v1:0 in ${AI_REGIONS.fallback}`,
      ].sort(),
    );
    expect(byName.get(`CDK bootstrap in ${AI_REGIONS.primary}`)).toMatchObject({
      detail: 'not bootstrapped',
      fix: expect.stringContaining('cdk bootstrap'),
    });
    expect(byName.get(`Lambda concurrency in ${AI_REGIONS.primary}`)?.detail).toContain(`need ${neededConcurrency()}`);
    expect(byName.get(`quality model us.anthropic.claude-haiku-4-5-20251001-v1:0 in ${AI_REGIONS.fallback}`)).toMatchObject({
      detail: 'not authorized, no entitlement, agreement NOT_AVAILABLE',
      fix: expect.stringContaining('Model access'),
    });
    account.set({ bootstrapVersion: REQUIRED_BOOTSTRAP_VERSION - 1 });
    expect((await run('--stage', 'dev')).results.find((r) => r.name.startsWith('CDK bootstrap'))?.detail).toContain(
      `need ${REQUIRED_BOOTSTRAP_VERSION} or later`,
    );
  });

  test('prod mails through SES: its identity must be verified and the account out of the sandbox', async () => {
    const settings = Object.entries(PROD_EXAMPLE_SETTINGS).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
    const identity = `SES identity ${PROD_EXAMPLE_SETTINGS.sesVerifiedDomain} in ${PROD_EXAMPLE_SETTINGS.sesRegion}`;
    const access = `SES production access in ${PROD_EXAMPLE_SETTINGS.sesRegion}`;
    e2e.twin.account.set({ sesProductionAccess: false });
    const before = await run('--stage', 'prod', ...settings);
    expect(before.code).toBe(1);
    expect(failed(before.results).sort()).toEqual([access, identity].sort());
    // an identity is verified in one region: another region's does not count
    e2e.twin.account.set({ verifiedIdentities: [`eu-west-1 ${PROD_EXAMPLE_SETTINGS.sesVerifiedDomain}`], sesProductionAccess: true });
    expect(failed((await run('--stage', 'prod', ...settings)).results)).toEqual([identity]);
    e2e.twin.account.set({ verifiedIdentities: [`${PROD_EXAMPLE_SETTINGS.sesRegion} ${PROD_EXAMPLE_SETTINGS.sesVerifiedDomain}`] });
    const after = await run('--stage', 'prod', ...settings);
    expect(failed(after.results)).toEqual([]);
    expect(after.code).toBe(0);
  });

  test('a stage the app refuses to synthesize is refused before any call', async () => {
    const { code, err } = await run('--stage', 'staging');
    expect(code).toBe(1);
    expect(err).toMatch(/unknown stage 'staging'/);
  });
};
