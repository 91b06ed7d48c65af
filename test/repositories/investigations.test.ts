/**
 * The investigations list: the caller's organization's only, newest first, paged by the one convention
 * (limit, cursor, next_cursor) with nothing skipped or repeated, ties in created_at included.
 */
import { INVESTIGATION_LIST, listInvestigations } from '#core/repositories/investigations';
import { investigationsListRoute } from '#core/evidence/contract';
import { creationPlaceSchema, decodeCursor, type CreationPlace } from '#core/pagination';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
let org = '';
const newestFirst: string[] = [];

beforeAll(async () => {
  org = (await db.insertInto('organizations').values({ name: 'Listing Org' }).returning('id').executeTakeFirstOrThrow()).id;
  const other = (await db.insertInto('organizations').values({ name: 'Other Listing Org' }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('investigations').values({ organization_id: other, title: 'Not theirs' }).execute();
  // two share their creation instant: the id orders them
  const instants = ['2026-01-01T10:00:00Z', '2026-01-02T10:00:00Z', '2026-01-02T10:00:00Z', '2026-01-03T10:00:00Z', '2026-01-04T10:00:00Z'];
  const rows = await db
    .insertInto('investigations')
    .values(instants.map((at, i) => ({ organization_id: org, title: `Case ${i}`, created_at: new Date(at) })))
    .returning(['id', 'created_at'])
    .execute();
  newestFirst.push(...rows.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id));
});

const allPages = async (limit: number) => {
  const pages: string[][] = [];
  let after: CreationPlace | undefined;
  do {
    const page = await listInvestigations(db, org, { limit, ...(after && { after }) });
    expect(investigationsListRoute.response.safeParse(page).success).toBe(true);
    pages.push(page.investigations.map((i) => i.investigation_id));
    after = page.next_cursor === null ? undefined : decodeCursor(page.next_cursor, creationPlaceSchema);
  } while (after && pages.length < 10);
  return pages;
};

test("newest first, the organization's only, one page when it fits", async () => {
  expect(await allPages(INVESTIGATION_LIST.defaultLimit)).toEqual([newestFirst]);
});

test('pages of limit follow next_cursor until null, skipping and repeating nothing', async () => {
  expect(await allPages(2)).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
  expect(await allPages(1)).toEqual(newestFirst.map((id) => [id]));
});

test('the query takes limit 1..200 and a cursor, and nothing else', () => {
  const query = investigationsListRoute.query;
  expect(query.parse({})).toEqual({ limit: 50 });
  for (const bad of [{ limit: '0' }, { limit: '201' }, { cursor: '' }, { before: 'x' }]) expect(query.safeParse(bad).success).toBe(false);
});
