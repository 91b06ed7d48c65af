/**
 * The payment processor's webhook signing secret, in Secrets Manager (WEBHOOK_SECRET_ARN, cached for a
 * few minutes: ../aws/secrets.ts; the stack creates a placeholder to replace with the processor's value;
 * the twin generates one and prints it at start).
 */
import { secretReader } from '#core/aws/secrets';
import { ENV } from '#core/config';
import { ifUsed } from '#core/if-used';

export const webhookSecret = /* @__PURE__ */ ifUsed(() => secretReader(ENV.webhookSecretArn));
