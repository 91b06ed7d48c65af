/** The analysis types the service generates, in the order the SPA offers them. Pure. */
export const ANALYSIS_TYPES = ['question', 'topic', 'summary', 'gap', 'error_check'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];
