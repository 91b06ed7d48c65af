/** POST /api/admin/prompts `{ prompt_type, system_prompt, user_prompt_template }` — the next version of a type (201). */
import { adminActor } from '../../layers/core/admin/audit-trail';
import { createPromptVersion, versionLocation } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, body }) => {
  const db = await database();
  const version = await createPromptVersion(db, await adminActor(db, caller!), body);
  return { status: 201, body: version, headers: { location: versionLocation(version) } };
}, { auditsEveryAttempt: true });
