/**
 * The end-to-end suites that need the deployment with an empty database (migrated, nothing seeded) and its schedules
 * off, one after another on one twin, as test/e2e/demo-twin.e2e.test.ts runs those on the demo data. Each makes the
 * organizations and evidence it needs. The order matters where a suite reads what the service keeps across all of
 * them (job runs, queue depths): the operations routes first, the embedding sweeper's own runs next, the files last.
 */
import { embeddingSweeper } from '../embeddings/embedding-sweeper.e2e';
import { filesRoutes } from '../files/files.e2e';
import { operationsRoutes } from '../operations/operations.e2e';
import { useTwin } from '../support/twin';

const e2e = useTwin({ schedules: false, seed: false });

describe('test/operations/operations.e2e.ts', () => operationsRoutes(e2e));
describe('test/embeddings/embedding-sweeper.e2e.ts', () => embeddingSweeper(e2e));
describe('test/files/files.e2e.ts', () => filesRoutes(e2e));
