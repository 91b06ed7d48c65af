/** GET /api/admin/jobs/status — the newest run of each sweep, queue depths, analyses in flight. */
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';
import { adminJobsStatusRoute } from '../../layers/core/operations/contract';
import { jobsStatus } from '../../layers/core/operations/jobs-status';

export const handler = route(adminJobsStatusRoute, async () => ({ body: await jobsStatus(await database()) }));
