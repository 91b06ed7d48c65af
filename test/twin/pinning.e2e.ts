/**
 * RDS Proxy pinning (issue 29, item 7), measured through the twin's proxy: after every suite of a shared twin has
 * driven its functions — analyses and their retrieval, the AI quota, the generation cap, ingestion's near-duplicate
 * groups, prompt versions, hostile inputs on every route —, none of their database sessions did what RDS Proxy pins
 * a session for (lib/twin/database/pinning.ts). Run last in each group (test/e2e/).
 */
import type { TwinTest } from '../support/twin';

export const noSessionPinned = (e2e: TwinTest): void => {
  test("no function's database session was pinned to its connection", () => {
    expect(e2e.twin.databaseProxy.pinnedSessions()).toEqual([]);
  });
};
