/**
 * In place of the semver package in every bundle (lib/bundling.ts). Its one user there is the X-Ray SDK
 * under Powertools Tracer, whose AWS SDK v2 patcher compares the SDK's version with `semver.gte` — a
 * patcher this service never calls (its v3 clients are captured instead, ./client-cache.ts); the whole
 * package weighed 28 kB and ~5 ms of every cold start. test/infra/bundling.test.ts checks nothing else
 * in a bundle reaches for semver.
 */

const parts = (version: string): number[] =>
  version
    .replace(/^v/, '')
    .split(/[.+-]/)
    .slice(0, 3)
    .map((n) => Number.parseInt(n, 10) || 0);

/** Whether dotted version `a` is at least `b` (major, minor, patch; pre-release tags are not ordered). */
export const gte = (a: string, b: string): boolean => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return true;
};
