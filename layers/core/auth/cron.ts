/**
 * The scheduler's bearer secret for /api/admin/cron/* routes, compared in constant time. It lives in
 * Secrets Manager (CRON_SECRET_ARN, read once per container).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { secretReader } from '../aws/secrets';
import { ENV } from '../config';

export const cronSecret = secretReader(ENV.cronSecretArn);

/** Equal-length digests, so neither content nor length leaks through timing. */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
