/**
 * Evidence coverage of an analysis (SPEC "evidence coverage stats: items considered vs. total"; DESIGN
 * "Evidence coverage"): the evidence items represented among the chunks retrieval considered (included
 * or excluded, i.e. every ranked chunk) over the evidence items of the investigation. Background
 * documents are not evidence items, so they never count towards `considered`; they are reported
 * separately, as the number of distinct background documents among the chunks considered.
 *
 * Pure: no I/O, no clock, no environment.
 */

export interface EvidenceCoverage {
  /** distinct evidence items with at least one chunk considered; never above `total` */
  considered: number;
  /** evidence items of the investigation */
  total: number;
  /** distinct background documents with at least one chunk considered */
  background_documents_considered: number;
}

/** What a considered chunk says about its source: one of the two ids is set. */
export interface ConsideredChunkSource {
  evidence_item_id: string | null;
  background_document_id: string | null;
}

const distinct = (ids: ReadonlyArray<string | null>): number => new Set(ids.filter((id) => id !== null)).size;

/**
 * Coverage over the chunks considered. `considered` is capped at `total`: the total is counted after
 * retrieval, so an evidence item deleted in between could otherwise make coverage pass 100 %.
 */
export const evidenceCoverage = (chunks: readonly ConsideredChunkSource[], totalEvidenceItems: number): EvidenceCoverage => {
  if (!Number.isInteger(totalEvidenceItems) || totalEvidenceItems < 0) {
    throw new RangeError(`totalEvidenceItems must be a non-negative integer, got ${String(totalEvidenceItems)}`);
  }
  return {
    considered: Math.min(distinct(chunks.map((c) => c.evidence_item_id)), totalEvidenceItems),
    total: totalEvidenceItems,
    background_documents_considered: distinct(chunks.map((c) => c.background_document_id)),
  };
};

/**
 * The coverage stored on an analysis, as shown. Analyses generated before background documents were
 * counted separately stored included sources of both kinds as `considered` (it could pass `total`):
 * their `considered` is capped and their background count is unknown (null).
 */
export const storedEvidenceCoverage = (
  stored: { considered: number; total: number; background_documents_considered?: number } | null,
): (Omit<EvidenceCoverage, 'background_documents_considered'> & { background_documents_considered: number | null }) | null =>
  stored === null
    ? null
    : {
        considered: Math.min(stored.considered, stored.total),
        total: stored.total,
        background_documents_considered: stored.background_documents_considered ?? null,
      };
