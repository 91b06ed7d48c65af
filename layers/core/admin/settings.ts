/**
 * Runtime settings (SPEC part 8): the list exposes no settings, and no key is modifiable. A change
 * request is still accepted for reading so that every attempt — one naming keys, an empty one, a
 * malformed one — leaves an `admin.settings.update` audit row saying what was asked and why it was
 * refused.
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { DomainError } from '#core/errors';
import { auditedWrite, type AdminActor } from './audit-trail';
import { ifUsed } from '#core/if-used';

const settingSchema = /* @__PURE__ */ ifUsed(() => z.object({ key: z.string(), value: z.unknown(), description: z.string() }));
type RuntimeSetting = z.infer<typeof settingSchema>;

/** The runtime settings an administrator may read and change: none (the spec's current state). */
const RUNTIME_SETTINGS: readonly RuntimeSetting[] = /* @__PURE__ */ ifUsed(() => Object.freeze([]));

export const settingsListSchema = /* @__PURE__ */ ifUsed(() => z.object({ settings: z.array(settingSchema) }));

export const settingsChangeSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject(
    {
      settings: z.record(z.string(), z.unknown(), { error: 'settings must be an object of key → value' }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field(s) ${issue.keys.join(', ')}: send { "settings": { "<key>": <value> } }`
          : undefined,
    },
  ),
);

export const listSettings = () => ({ settings: [...RUNTIME_SETTINGS] });

const settingsNotModifiable = (keys: string[]) =>
  new DomainError('invalid', 'settings_not_modifiable', `No setting can be changed here; refused: ${keys.join(', ')}.`, {
    refused_keys: keys,
  });

export const SETTINGS_AUDIT = { action: 'admin.settings.update', target: 'settings' } as const;

/**
 * PUT /api/admin/settings with `{ "settings": { "<key>": <value> } }`. Every key is refused (400
 * `settings_not_modifiable`, `details.refused_keys`); an empty object changes nothing and answers the
 * (empty) list. Each call is audited, the refused ones as failures (a malformed one by the route's `refused` hook).
 */
export const changeSettings = (db: Kysely<Database>, actor: AdminActor, { settings }: z.output<typeof settingsChangeSchema>) =>
  auditedWrite(db, actor, SETTINGS_AUDIT, async () => {
    const keys = Object.keys(settings);
    // the list is empty, so every key named is refused
    if (keys.length > 0) throw settingsNotModifiable(keys);
    return { result: listSettings(), detail: { keys } };
  });
