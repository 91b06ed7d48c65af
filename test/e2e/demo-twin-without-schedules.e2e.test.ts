/**
 * The end-to-end suites that need the demo deployment with its schedules off (nothing swept or embedded behind their
 * backs) and nothing of their own, one after another on one twin, as test/e2e/demo-twin.e2e.test.ts runs those with
 * schedules on. A suite that switches the user pool's MFA mode or rotates the database's credentials leaves the twin
 * working as before (the mode switched back, the new credentials in place as a rotation leaves them). The hostile
 * inputs come last: they reach every function, and assert that nothing they send is stored.
 */
import { adminRoutes } from '../admin/admin.e2e';
import { assessingAnalyses } from '../analysis/assess.e2e';
import { enrollingAuthenticators } from '../auth/mfa-setup.e2e';
import { signingIn } from '../auth/sign-in.e2e';
import { authorizationMatrix } from '../http/authorization-matrix.e2e';
import { ingestingEvidence } from '../ingestion/ingestion.e2e';
import { preflight } from '../operator/preflight.e2e';
import { hostileInputs } from '../resilience/hostile-inputs.e2e';
import { useTwin } from '../support/twin';
import { rotatingDatabaseCredentials } from '../twin/credential-rotation.e2e';
import { noSessionPinned } from '../twin/pinning.e2e';

const e2e = useTwin({ schedules: false });

describe('test/admin/admin.e2e.ts', () => adminRoutes(e2e));
describe('test/analysis/assess.e2e.ts', () => assessingAnalyses(e2e));
describe('test/http/authorization-matrix.e2e.ts', () => authorizationMatrix(e2e));
describe('test/ingestion/ingestion.e2e.ts', () => ingestingEvidence(e2e));
describe('test/auth/sign-in.e2e.ts', () => signingIn(e2e));
describe('test/auth/mfa-setup.e2e.ts', () => enrollingAuthenticators(e2e));
describe('test/twin/credential-rotation.e2e.ts', () => rotatingDatabaseCredentials(e2e));
describe('test/operator/preflight.e2e.ts', () => preflight(e2e));
describe('test/resilience/hostile-inputs.e2e.ts', () => hostileInputs(e2e));
describe('test/twin/pinning.e2e.ts', () => noSessionPinned(e2e));
