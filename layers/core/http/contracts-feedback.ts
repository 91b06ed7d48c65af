/** Request and response schemas of the feedback routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';

export const feedbackContracts = {
} satisfies Record<string, RouteContract>;
