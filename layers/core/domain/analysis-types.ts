/** The analysis types the service generates, in the order the SPA offers them. Pure. */
import type { AnalysisType } from '../db/schema';

export const ANALYSIS_TYPES = ['question', 'topic', 'summary', 'gap', 'error_check'] as const satisfies readonly AnalysisType[];

// compile-time guard: the list above covers every type the database accepts
const everyTypeListed: AnalysisType extends (typeof ANALYSIS_TYPES)[number] ? true : never = true;
void everyTypeListed;
