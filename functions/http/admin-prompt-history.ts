/**
 * GET /api/admin/prompts/history?prompt_type=<type>[&version=<N>] — up to 20 versions of a prompt
 * type, newest first; with `version`, that version in full and its side-by-side diff against the
 * current version.
 */
import { adminPromptHistoryRoute } from '#core/admin/contract';
import { promptHistory } from '#core/admin/prompts';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(adminPromptHistoryRoute, async ({ query }) => ({ body: await promptHistory(await database(), query) }));
