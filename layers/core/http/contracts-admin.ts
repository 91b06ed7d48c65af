/** Request and response schemas of the admin routes (see contracts.ts, which gathers every area's). */
import * as z from 'zod';
import { auditHealthQuerySchema, auditHealthSchema } from '../admin/audit-health';
import {
  activationBodySchema, activationParamsSchema, activationSchema, createBodySchema, historyListSchema, historyQuerySchema, rollbackBodySchema, versionDetailSchema, versionSchema,
} from '../admin/prompts';
import { settingsChangeSchema, settingsListSchema } from '../admin/settings';
import { usersQuerySchema, usersSchema } from '../admin/users';
import type { RouteContract } from './contracts';

export const adminContracts = {
  'admin-prompt-history': { errors: { 404: 'No such version' },
    query: historyQuerySchema,
    response: z.union([historyListSchema, versionDetailSchema]).describe('without version: the list (up to 20, newest first); with version: that version in full and its diff against the current one'),
  },
  'admin-prompt-rollback': { status: 201, location: 'the new version', errors: { 404: 'No such version', 409: 'Same content as the current version' }, body: rollbackBodySchema, response: versionSchema },
  'admin-prompt-create': { status: 201, location: 'the new version', errors: { 409: 'Same content as the current version' }, body: createBodySchema, response: versionSchema },
  'admin-prompt-update': { errors: { 404: 'No such prompt type' }, params: activationParamsSchema, body: activationBodySchema, response: activationSchema },
  'admin-settings-get': { response: settingsListSchema },
  'admin-settings-put': { body: settingsChangeSchema, response: settingsListSchema },
  'admin-audit-health': { query: auditHealthQuerySchema, response: auditHealthSchema },
  'admin-users': { query: usersQuerySchema, response: usersSchema },
} satisfies Record<string, RouteContract>;
