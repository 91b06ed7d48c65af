/**
 * The payment processor's webhook signing secret. In AWS it lives in Secrets Manager
 * (WEBHOOK_SECRET_ARN, read once per container; the stack creates a placeholder to replace with the
 * processor's value); the twin passes the value itself in WEBHOOK_SECRET (.twin/webhook-secret,
 * created on first start like the cron secret).
 */
import { secretReader } from '../aws/secrets';
import { ENV } from '../config';

export const webhookSecret = secretReader(ENV.webhookSecret, ENV.webhookSecretArn);
