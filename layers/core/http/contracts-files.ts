/** Request and response schemas of the files routes (see contracts.ts, which gathers every area's). */
import type { RouteContract } from './contracts';

export const filesContracts = {
} satisfies Record<string, RouteContract>;
