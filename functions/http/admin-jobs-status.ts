/** GET /api/admin/jobs/status — the newest run of each sweep, queue depths, analyses in flight. */
import { database } from '#core/db/connection';
import { route } from '#core/http/route';
import { adminJobsStatusRoute } from '#core/operations/contract';
import { jobsStatus } from '#core/operations/jobs-status';

export const handler = route(adminJobsStatusRoute, async () => ({ body: await jobsStatus(await database()) }));
