/** GET /api/admin/jobs/status — the newest run of each sweep, queue depths, analyses in flight. */
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';
import { jobsStatus } from '../../layers/core/operations/jobs-status';

export const handler = httpRoute(async () => ({ body: await jobsStatus(await database()) }));
