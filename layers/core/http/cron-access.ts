/**
 * The bearer check of the cron routes (`POST /api/admin/cron/*`): the scheduler's secret (Secrets
 * Manager, through Powertools Parameters) or an administrator's token (verified with jose). Its own
 * module, handed to `route` by the cron handlers only (./scheduled-job.ts): no other route bundles
 * the secret client or the token verifier.
 */
import { callerFromClaims, type Caller } from '#core/auth/caller';
import { cronSecret, sameSecret } from '#core/auth/cron';
import { bearerToken, InvalidTokenError, verifyAccessToken } from '#core/auth/jwt';
import { refused, unauthenticated } from '#core/errors';
import { header, OPERATOR_WITH_ORGANIZATION, type CronAccess, type HttpEvent } from './route';

/** Cron routes: the scheduler's secret, or an administrator's token. A mismatch fails the run. */
export const cronAccess: CronAccess = async (event: HttpEvent): Promise<Caller | undefined> => {
  const token = bearerToken(header(event, 'authorization'));
  if (!token) throw unauthenticated('The cron bearer secret or an admin token is required.');
  const secret = await cronSecret();
  if (secret && sameSecret(token, secret)) return undefined;
  let caller: Caller | undefined;
  try {
    caller = callerFromClaims(await verifyAccessToken(token));
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthenticated('The bearer is neither the cron secret nor a valid token.');
    throw error;
  }
  if (caller?.role !== 'admin') throw refused('This route is for the scheduler and administrators.');
  if (caller.organizationId) throw refused(OPERATOR_WITH_ORGANIZATION);
  return caller;
};
