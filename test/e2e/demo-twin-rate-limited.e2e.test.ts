/**
 * The end-to-end suites that take the database away under the demo deployment with the handlers' rate limiting on
 * (the limiter's counter is in the database too, and must let requests through rather than hang), one after another on
 * one twin, as test/e2e/demo-twin.e2e.test.ts runs those that need it without limits. Each suite puts the database
 * back when it is done; a single route's answer and recovery first, then the load.
 */
import { databaseFaults } from '../resilience/database-faults.e2e';
import { useTwin } from '../support/twin';
import { databaseUnavailable } from '../twin/database-unavailable.e2e';
import { noSessionPinned } from '../twin/pinning.e2e';

const e2e = useTwin({ context: { rateLimits: 'investigator=1000/60' } });

describe('test/twin/database-unavailable.e2e.ts', () => databaseUnavailable(e2e));
describe('test/resilience/database-faults.e2e.ts', () => databaseFaults(e2e));
describe('test/twin/pinning.e2e.ts', () => noSessionPinned(e2e));
