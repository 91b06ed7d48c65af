/**
 * The demo data set (demo.json): two organizations, so isolation between them can be shown.
 * - Northwind Compliance: a procurement-fraud / vendor-kickback inquiry with a full evidence set;
 * - Harbor Insurance SIU: a smaller suspicious-claim investigation.
 *
 * DEMO_USERS is read from the same file without touching the database, so the dev token command can
 * mint tokens for the demo users on its own.
 */
import type { Role } from '#core/db/schema';
import demo from './demo.json';
import { ifUsed } from '#core/if-used';

/** The demo file as it is on disk (seedDemo validates it like any other seed file). */
export const DEMO_SEED: unknown = demo;

export const DEMO_ORGANIZATION_IDS = {
  northwind: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01',
  harbor: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c02',
} as const;

export const DEMO_INVESTIGATION_IDS = {
  northwind: '2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01',
  harbor: '2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e02',
} as const;

export interface DemoUser {
  email: string;
  display_name: string;
  role: Role;
  idp_subject: string;
  /** null: an operator (administrators belong to no organization) */
  organization_id: string | null;
  organization_name: string | null;
}

const asRole = (role: string): Role => {
  if (role === 'admin' || role === 'investigator') return role;
  throw new Error(`demo.json: unknown role "${role}"`);
};

export const DEMO_USERS: readonly DemoUser[] = /* @__PURE__ */ ifUsed(() =>
  Object.freeze([
    ...(demo.operators ?? []).map((operator) =>
      Object.freeze({
        email: operator.email.toLowerCase(),
        display_name: operator.display_name,
        role: 'admin' as const,
        idp_subject: operator.idp_subject,
        organization_id: null,
        organization_name: null,
      }),
    ),
    ...demo.organizations.flatMap((org) => {
      if (!org.id) throw new Error(`demo.json: organization "${org.name}" needs a fixed id`);
      return org.users.map((user) =>
        Object.freeze({
          email: user.email.toLowerCase(),
          display_name: user.display_name,
          role: asRole(user.role),
          idp_subject: user.idp_subject,
          organization_id: org.id,
          organization_name: org.name,
        }),
      );
    }),
  ]),
);

/** The first demo user with this role (the dev token command's default pick); operators have no organization. */
export const demoUser = (role: Role, organizationId: string = DEMO_ORGANIZATION_IDS.northwind): DemoUser => {
  const user = DEMO_USERS.find((u) => u.role === role && u.organization_id === organizationId) ?? DEMO_USERS.find((u) => u.role === role);
  if (!user) throw new Error(`no demo user with role ${role}`);
  return user;
};
