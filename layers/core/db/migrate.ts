/**
 * Runs the migrations (kysely Migrator, in-code provider so bundles carry them).
 *
 * Shipped migrations are history: their SQL never changes, so their CHECK lists are written out. A new
 * migration that creates or changes a CHECK on a closed word list builds it from the domain's const
 * tuple (domain/vocabulary.ts and its neighbours), e.g. `check (role in (${sql.join(ROLES.map((role) => sql.lit(role)))}))`;
 * test/db/vocabulary.test.ts fails whenever the migrated database and the domain disagree, so a change
 * to a list also needs the migration that changes its CHECK.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import { migration as domain } from './migrations/0001-domain';
import { migration as aiQuota } from './migrations/0002-ai-quota';
import { migration as promptTemplates } from './migrations/0003-prompt-templates';
import { migration as evidenceCounters } from './migrations/0004-evidence-counters';
import { migration as feedback } from './migrations/0005-feedback';
import { migration as operators } from './migrations/0006-operators';
import { migration as aiCallTimeouts } from './migrations/0007-ai-call-timeouts';
import { migration as analysisLeases } from './migrations/0008-analysis-leases';
import { migration as fairAiCapacity } from './migrations/0009-fair-ai-capacity';
import { migration as fencedPrompts } from './migrations/0010-fenced-prompts';
import { migration as lowRelevance } from './migrations/0011-low-relevance';
import { migration as retrievalIndex } from './migrations/0012-retrieval-index';
import { migration as assessCounts } from './migrations/0013-assess-counts';
import { migration as ingestion } from './migrations/0014-ingestion';
import { migration as embeddingWork } from './migrations/0015-embedding-work';
import { migration as nearDuplicateGroups } from './migrations/0016-near-duplicate-groups';
import { migration as ingestContention } from './migrations/0017-ingest-contention';
import { migration as graphAnchors } from './migrations/0018-graph-anchors';
import { migration as inlineVectors } from './migrations/0019-inline-vectors';
import { migration as claimVerdicts } from './migrations/0020-claim-verdicts';
import { migration as promptChangeNotes } from './migrations/0021-prompt-change-notes';
import { migration as transactionState } from './migrations/0022-transaction-state';
import { migration as placedChunkKeys } from './migrations/0023-placed-chunk-keys';
import { migration as promptCache } from './migrations/0024-prompt-cache';

export const migrations: Record<string, Migration> = {
  '0001-domain': domain,
  '0002-ai-quota': aiQuota,
  '0003-prompt-templates': promptTemplates,
  '0004-evidence-counters': evidenceCounters,
  '0005-feedback': feedback,
  '0006-operators': operators,
  '0007-ai-call-timeouts': aiCallTimeouts,
  '0008-analysis-leases': analysisLeases,
  '0009-fair-ai-capacity': fairAiCapacity,
  '0010-fenced-prompts': fencedPrompts,
  '0011-low-relevance': lowRelevance,
  '0012-retrieval-index': retrievalIndex,
  '0013-assess-counts': assessCounts,
  '0014-ingestion': ingestion,
  '0015-embedding-work': embeddingWork,
  '0016-near-duplicate-groups': nearDuplicateGroups,
  '0017-ingest-contention': ingestContention,
  '0018-graph-anchors': graphAnchors,
  '0019-inline-vectors': inlineVectors,
  '0020-claim-verdicts': claimVerdicts,
  '0021-prompt-change-notes': promptChangeNotes,
  '0022-transaction-state': transactionState,
  '0023-placed-chunk-keys': placedChunkKeys,
  '0024-prompt-cache': promptCache,
};

export const migrateToLatest = async (db: Kysely<unknown>): Promise<MigrationResultSet> => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${result.error instanceof Error ? result.error.message : String(result.error)}`);
  }
  return result;
};
