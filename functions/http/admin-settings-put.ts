/** PUT /api/admin/settings `{ settings: { <key>: <value> } }` — no key is modifiable (400 naming them); every call is audited. */
import { adminActor } from '../../layers/core/admin/audit-trail';
import { changeSettings } from '../../layers/core/admin/settings';
import { database } from '../../layers/core/db/connection';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, body }) => {
  const db = await database();
  return { body: await changeSettings(db, await adminActor(db, caller!), body) };
}, { auditsEveryAttempt: true });
