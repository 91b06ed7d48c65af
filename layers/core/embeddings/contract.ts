/** The contract of the embedding sweeper's cron route (../contract.ts). */
import { defineRoute } from '#core/contract';
import { sweepRunSchema } from './report';
import { ifUsed } from '#core/if-used';

export const embeddingSweeperRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'POST /api/admin/cron/embedding-sweeper', response: sweepRunSchema }),
);
