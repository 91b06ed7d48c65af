/** Request and response schemas of the admin routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';

export const adminContracts = {
} satisfies Record<string, RouteContract>;
