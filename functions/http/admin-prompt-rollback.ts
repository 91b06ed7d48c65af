/** POST /api/admin/prompts/history `{ prompt_type, version }` — a new version holding version N's content (201). */
import { adminActor, auditRefusedWrite, fieldOf } from '../../layers/core/admin/audit-trail';
import { adminPromptRollbackRoute } from '../../layers/core/admin/contract';
import { PROMPT_AUDIT, promptTarget, rollbackPrompt, versionLocation } from '../../layers/core/admin/prompts';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(adminPromptRollbackRoute, async ({ caller, body }) => {
  const db = await database();
  const version = await rollbackPrompt(db, await adminActor(db, caller!), body);
  return { body: version, headers: { location: versionLocation(version) } };
}, { refused: auditRefusedWrite(PROMPT_AUDIT.rollback, ({ content }) => promptTarget(fieldOf(content, 'prompt_type'))) });
