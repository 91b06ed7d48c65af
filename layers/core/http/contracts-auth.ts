/** Request and response schemas of the auth routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';

export const authContracts = {
} satisfies Record<string, RouteContract>;
