/** Request and response schemas of the operations routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';
import { jobsStatusSchema } from '../operations/jobs-status';
import { queueStatsSchema } from '../operations/queue-stats';
import { retentionRunSchema } from '../operations/retention';
import { paymentEventSchema, webhookResultSchema } from '../payments/webhook';

export const operationsContracts = {
  'admin-queue-stats': { response: queueStatsSchema },
  'admin-jobs-status': { response: jobsStatusSchema },
  'retention-sweep': { response: retentionRunSchema },
  'payment-webhook': { errors: { 401: 'Missing, bad or stale signature; nothing stored', 503: 'The signing secret is not configured' }, body: paymentEventSchema, response: webhookResultSchema },
} satisfies Record<string, RouteContract>;
