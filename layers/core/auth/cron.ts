/**
 * The scheduler's bearer secret for /api/admin/cron/* routes, compared in constant time. It lives in
 * Secrets Manager (CRON_SECRET_ARN; cached for a few minutes, so a rotation reaches warm containers: ../aws/secrets.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { secretReader } from '#core/aws/secrets';
import { ENV } from '#core/config';
import { ifUsed } from '#core/if-used';

export const cronSecret = /* @__PURE__ */ ifUsed(() => secretReader(ENV.cronSecretArn));

/** Equal-length digests, so neither content nor length leaks through timing. */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
