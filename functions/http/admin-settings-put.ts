/** PUT /api/admin/settings `{ settings: { <key>: <value> } }` — no key is modifiable (400 naming them); every call is audited. */
import { adminActor, auditRefusedWrite } from '#core/admin/audit-trail';
import { adminSettingsPutRoute } from '#core/admin/contract';
import { changeSettings, SETTINGS_AUDIT } from '#core/admin/settings';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(
  adminSettingsPutRoute,
  async ({ caller, body }) => {
    const db = await database();
    return { body: await changeSettings(db, await adminActor(db, caller!), body) };
  },
  { refused: auditRefusedWrite(SETTINGS_AUDIT.action, () => SETTINGS_AUDIT.target) },
);
