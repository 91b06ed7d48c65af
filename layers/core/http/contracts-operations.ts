/** Request and response schemas of the operations routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';

export const operationsContracts = {
} satisfies Record<string, RouteContract>;
