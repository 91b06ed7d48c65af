/** POST /api/admin/prompts/history `{ prompt_type, version }` — a new version holding version N's content (201). */
import { adminActor } from '../../layers/core/admin/audit-trail';
import { rollbackPrompt, versionLocation } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, body }) => {
  const db = await database();
  const version = await rollbackPrompt(db, await adminActor(db, caller!), body);
  return { status: 201, body: version, headers: { location: versionLocation(version) } };
}, { auditsEveryAttempt: true });
