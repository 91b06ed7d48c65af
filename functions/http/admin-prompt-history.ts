/**
 * GET /api/admin/prompts/history?prompt_type=<type>[&version=<N>] — up to 20 versions of a prompt
 * type, newest first; with `version`, that version in full and its side-by-side diff against the
 * current version.
 */
import { promptHistory } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ query }) => ({ body: await promptHistory(await database(), query) }));
