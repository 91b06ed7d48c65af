/** Shared zod pieces for path and query parameters. */
import * as z from 'zod';

export const uuid = z.uuid({ error: 'must be a UUID' });
