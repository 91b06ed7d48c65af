/**
 * The end-to-end suites that need the demo deployment as `npm start` runs it (seeded, schedules on) and nothing of their
 * own, one after another on one twin. Each suite is a `*.e2e.ts` beside the feature it covers, written to leave the twin
 * as a user would (what it creates is its own, what it changes it restores); a suite that changes the deployment, its
 * pool's settings or its process starts a twin of its own (`*.e2e.test.ts`).
 *
 * Why shared: a twin's start costs about 4 CPU-seconds, and every function's first call on it a cold start; run apart,
 * these twelve suites took 103 CPU-seconds on two cores, together 52 (README, Quick start).
 */
import { exportingAnalyses } from '../analysis/export.e2e';
import { evidenceAndPassages } from '../analysis/evidence.e2e';
import { generatingAnalyses } from '../analysis/generation.e2e';
import { readingAnalyses } from '../analysis/read.e2e';
import { judgingAnalyses } from '../feedback/feedback.e2e';
import { importingInvestigations } from '../operator/import.e2e';
import { onboardingUsers } from '../operator/onboarding.e2e';
import { qualityChecks } from '../quality/quality.e2e';
import { ingestionUnderLoad } from '../resilience/ingestion.e2e';
import { tenantFlood } from '../resilience/tenant-flood.e2e';
import { useTwin } from '../support/twin';
import { requestCorrelation } from '../twin/correlation.e2e';
import { theDeploymentAsSynthesized } from '../twin/deployment.e2e';
import { noSessionPinned } from '../twin/pinning.e2e';

const e2e = useTwin();

describe('test/analysis/read.e2e.ts', () => readingAnalyses(e2e));
describe('test/analysis/export.e2e.ts', () => exportingAnalyses(e2e));
describe('test/analysis/evidence.e2e.ts', () => evidenceAndPassages(e2e));
describe('test/analysis/generation.e2e.ts', () => generatingAnalyses(e2e));
describe('test/quality/quality.e2e.ts', () => qualityChecks(e2e));
describe('test/twin/correlation.e2e.ts', () => requestCorrelation(e2e));
describe('test/twin/deployment.e2e.ts', () => theDeploymentAsSynthesized(e2e));
describe('test/operator/import.e2e.ts', () => importingInvestigations(e2e));
describe('test/operator/onboarding.e2e.ts', () => onboardingUsers(e2e));
describe('test/feedback/feedback.e2e.ts', () => judgingAnalyses(e2e));
describe('test/resilience/ingestion.e2e.ts', () => ingestionUnderLoad(e2e));
describe('test/resilience/tenant-flood.e2e.ts', () => tenantFlood(e2e));
describe('test/twin/pinning.e2e.ts', () => noSessionPinned(e2e));
