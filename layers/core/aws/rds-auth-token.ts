/**
 * IAM database authentication: a short-lived RDS auth token (a SigV4-presigned `connect` request, valid 15
 * minutes) signed with the function's own role credentials, used as the password when a connection opens.
 * The RDS Proxy checks it and the role's `rds-db:connect` grant, then reaches the database with its secret's
 * current password, so a rotated secret never reaches a function (docs/deploy.md). Signed as @aws-sdk/rds-signer
 * signs it (a GET of `https://<host>:<port>/?Action=connect&DBUser=<user>`, service rds-db, 900 s), with the signer
 * alone (./presigned-url.ts), loaded on first use, so a function's cold start does not pay for it before it connects.
 */
import { ENV, requireEnv } from '#core/config';

export interface RdsAuthTarget {
  /** the endpoint clients connect to (the RDS Proxy's) */
  hostname: string;
  port: number;
  /** the database user the token signs in as */
  username: string;
}

/**
 * A password source for a pg Pool: node-postgres calls it for each new connection, so every connection
 * signs a fresh token (tokens are checked only when a connection opens; an open one outlives its token).
 */
export const rdsAuthToken =
  (target: RdsAuthTarget): (() => Promise<string>) =>
  async () => {
    const { presignedUrl } = await import('./presigned-url');
    return (
      await presignedUrl(
        {
          method: 'GET',
          protocol: 'https:',
          hostname: target.hostname,
          port: target.port,
          path: '/',
          query: { Action: 'connect', DBUser: target.username },
          headers: { host: `${target.hostname}:${target.port}` },
        },
        { service: 'rds-db', region: requireEnv(ENV.awsRegion), expiresInSeconds: 900 },
      )
    ).replace('https://', '');
  };
