/** The contracts of the admin routes (../contract.ts). */
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import { auditHealthQuerySchema, auditHealthSchema } from './audit-health';
import {
  activationBodySchema,
  activationParamsSchema,
  activationSchema,
  createBodySchema,
  historyListSchema,
  historyQuerySchema,
  rollbackBodySchema,
  versionDetailSchema,
  versionSchema,
} from './prompts';
import { settingsChangeSchema, settingsListSchema } from './settings';
import { usersQuerySchema, usersSchema } from './users';
import { ifUsed } from '#core/if-used';

export const adminPromptHistoryRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/admin/prompts/history',
    errors: { 404: 'No such version' },
    query: historyQuerySchema,
    response: z
      .union([historyListSchema, versionDetailSchema])
      .describe(
        'without version: the list (up to 20, newest first); with version: that version in full and its diff against the current one',
      ),
  }),
);

export const adminPromptRollbackRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/admin/prompts/history',
    status: 201,
    location: 'the new version',
    errors: { 404: 'No such version', 409: 'Same content as the current version' },
    body: rollbackBodySchema,
    response: versionSchema,
  }),
);

export const adminPromptCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/admin/prompts',
    status: 201,
    location: 'the new version',
    errors: { 409: 'Same content as the current version' },
    body: createBodySchema,
    response: versionSchema,
  }),
);

export const adminPromptUpdateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'PATCH /api/admin/prompts/{prompt_type}',
    errors: { 404: 'No such prompt type' },
    params: activationParamsSchema,
    body: activationBodySchema,
    response: activationSchema,
  }),
);

export const adminSettingsGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'GET /api/admin/settings', response: settingsListSchema }),
);

export const adminSettingsPutRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'PUT /api/admin/settings',
    body: settingsChangeSchema,
    response: settingsListSchema,
  }),
);

export const adminAuditHealthRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/admin/audit-health',
    query: auditHealthQuerySchema,
    response: auditHealthSchema,
  }),
);

export const adminUsersRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'GET /api/admin/users', query: usersQuerySchema, response: usersSchema }),
);
