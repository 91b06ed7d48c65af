/** The contract of the embedding sweeper's cron route (../contract.ts). */
import { defineRoute } from '#core/contract';
import { sweepRunSchema } from './report';

export const embeddingSweeperRoute = defineRoute({ route: 'POST /api/admin/cron/embedding-sweeper', response: sweepRunSchema });
