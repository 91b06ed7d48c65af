/**
 * Data access for embedding chunks (text_chunks), the embedding work's list: a chunk waits for its vector while
 * `embedding` is null and it represents its near-duplicate group (`duplicate_of` null: a duplicate is never sent to
 * the model, it takes its representative's vector). The partial indexes of migrations 0014 and 0015 hold exactly
 * those chunks, so finding work costs nothing once everything is embedded.
 *
 * Claims are leases, taken without holding a transaction while the model is called (the AI gateway writes its quota
 * and ledger rows through the same database, and PGlite has one connection): one statement takes up to `limit`
 * waiting chunks of ONE investigation `FOR UPDATE SKIP LOCKED` and sets their `embed_lease_until` to now + the lease,
 * truncated to milliseconds. That value is the claim's token: every later write (renewal, store, release) is
 * conditional on the chunk's lease still being it, so a chunk whose lease ran out and was claimed again by another
 * worker is never written by the first, and a chunk whose source was rewritten meanwhile (chunk-store.ts deletes and
 * recreates the chunks) is simply gone. A killed worker's chunks become claimable when its lease runs out. A chunk
 * the model refused is leased by nobody until its retry time (deferChunks): the lease doubles as "not before".
 *
 * The chunks of a source given up (status error at the attempt cap) are not claimed: they wait for the source's text
 * to be written again.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#core/db/schema';
import { GRAPH_ANCHOR_COSINE } from '#core/embeddings/near-duplicates';

export interface ClaimedChunk {
  id: string;
  text: string;
  embedding_source_id: string;
}

export interface ChunkClaim {
  investigation_id: string;
  /** whose fair share of the model quota the requests take */
  organization_id: string;
  /** the claim's token: the chunks' embed_lease_until (renewals replace it) */
  lease: Date;
  /** in the order they are embedded: oldest first, a source's chunks in their order */
  chunks: ClaimedChunk[];
  /** how long ago each chunk was written, on the database's clock, in the chunks' order */
  agesMs: number[];
}

const leaseUntil = (leaseMs: number) => sql<Date>`date_trunc('milliseconds', now() + ${leaseMs} * interval '1 millisecond')`;

/** A chunk waiting for its vector whose lease, if any, has run out, and whose source is not given up. */
const claimable = (maxAttempts: number): RawBuilder<boolean> => sql<boolean>`
  c.embedding is null and c.duplicate_of is null
  and (c.embed_lease_until is null or c.embed_lease_until <= now())
  and not exists (select 1 from embedding_sources s
                  where s.id = c.embedding_source_id and s.status = 'error' and s.attempts >= ${maxAttempts})`;

export interface ClaimOptions {
  /** most chunks claimed */
  limit: number;
  leaseMs: number;
  maxAttempts: number;
  /**
   * organizations this worker served, least recently first: an organization it has not served comes first, then the
   * one it served longest ago, then by the oldest waiting chunk — so one worker takes turns between organizations
   * instead of finishing one organization's backlog before another's first chunk (the quota's fair share then
   * splits the requests of workers running at once)
   */
  served?: readonly string[];
  /** investigations not to claim from in this statement (their text is still streaming in: embedding-work.ts) */
  skip?: readonly string[];
}

/** Claims up to `limit` waiting chunks of one investigation (see ClaimOptions.served for which); undefined when none waits. */
export const claimChunks = async (
  db: Kysely<Database>,
  { limit, leaseMs, maxAttempts, served = [], skip = [] }: ClaimOptions,
): Promise<ChunkClaim | undefined> => {
  const { rows } = await sql<
    ClaimedChunk & {
      investigation_id: string;
      organization_id: string;
      lease: Date;
      created_at: Date;
      chunk_index: number;
      age_ms: number;
    }
  >`
    with target as (
      select c.investigation_id
      from text_chunks c join investigations i on i.id = c.investigation_id
      where ${claimable(maxAttempts)} and c.investigation_id <> all(${[...skip]}::uuid[])
      order by coalesce(array_position(${[...served]}::uuid[], i.organization_id), 0), c.created_at
      limit 1
    ), picked as (
      select c.id from text_chunks c
      where c.investigation_id = (select investigation_id from target) and ${claimable(maxAttempts)}
      order by c.created_at, c.embedding_source_id, c.chunk_index
      limit ${limit}
      for update of c skip locked
    )
    update text_chunks c set embed_lease_until = ${leaseUntil(leaseMs)}
    from picked, investigations i
    where c.id = picked.id and i.id = c.investigation_id
    returning c.id, c.text, c.embedding_source_id, c.investigation_id, i.organization_id, c.embed_lease_until as lease,
              c.created_at, c.chunk_index, extract(epoch from now() - c.created_at) * 1000 as age_ms`.execute(db);
  const first = rows[0];
  if (!first) return undefined;
  // UPDATE … RETURNING gives no order: the claim's order (oldest first, each source's chunks in their order)
  const ordered = [...rows].sort(
    (a, b) =>
      new Date(a.created_at).getTime() - new Date(b.created_at).getTime() ||
      a.embedding_source_id.localeCompare(b.embedding_source_id) ||
      a.chunk_index - b.chunk_index,
  );
  return {
    investigation_id: first.investigation_id,
    organization_id: first.organization_id,
    lease: new Date(first.lease),
    chunks: ordered.map(({ id, text, embedding_source_id }) => ({ id, text, embedding_source_id })),
    agesMs: ordered.map((r) => Number(r.age_ms)),
  };
};

/**
 * Renews the lease of these chunks of a claim (before each model request): returns the new token and the chunks
 * still held — one re-claimed by another worker after the lease ran out, or deleted by a rewrite, is no longer.
 */
export const renewLease = async (
  db: Kysely<Database>,
  ids: readonly string[],
  lease: Date,
  leaseMs: number,
): Promise<{ lease: Date; held: Set<string> }> => {
  const { rows } = await sql<{ id: string; lease: Date }>`
    update text_chunks set embed_lease_until = ${leaseUntil(leaseMs)}
    where id = any(${[...ids]}::uuid[]) and embed_lease_until = ${lease} and embedding is null
    returning id, embed_lease_until as lease`.execute(db);
  return { lease: rows[0] ? new Date(rows[0].lease) : lease, held: new Set(rows.map((r) => r.id)) };
};

/** Gives claimed chunks back, claimable at once (those still held under `lease`). */
export const releaseChunks = async (db: Kysely<Database>, ids: readonly string[], lease: Date): Promise<void> => {
  if (ids.length === 0) return;
  await sql`update text_chunks set embed_lease_until = null
            where id = any(${[...ids]}::uuid[]) and embed_lease_until = ${lease}`.execute(db);
};

/** Gives claimed chunks back to be claimed no sooner than `delayMs` from now (a chunk the model refused). */
export const deferChunks = async (db: Kysely<Database>, ids: readonly string[], lease: Date, delayMs: number): Promise<void> => {
  if (ids.length === 0) return;
  await sql`update text_chunks set embed_lease_until = ${leaseUntil(delayMs)}
            where id = any(${[...ids]}::uuid[]) and embed_lease_until = ${lease}`.execute(db);
};

export interface StoredChunk {
  id: string;
  embedding_source_id: string;
}

/**
 * Vectors per statement: each goes into the HNSW index as it is stored, and a statement holds the database while it
 * runs (PGlite has one session), so a request's 96 go in slices and the API's statements get their turn between them.
 */
const STORE_SLICE = 16;

/**
 * Stores the vectors of claimed chunks with the model that made them, conditional on the claim's lease (a chunk
 * re-claimed or rewritten meanwhile is not written), and ends their lease. Returns the chunks stored.
 */
export const storeVectors = async (
  db: Kysely<Database>,
  { lease, model, vectors }: { lease: Date; model: string; vectors: readonly { id: string; embedding: string }[] },
): Promise<StoredChunk[]> => {
  // in id order, as every worker writes them: concurrent stores lock rows in one order
  const sorted = [...vectors].sort((a, b) => a.id.localeCompare(b.id));
  const stored: StoredChunk[] = [];
  for (let i = 0; i < sorted.length; i += STORE_SLICE) {
    const slice = sorted.slice(i, i + STORE_SLICE);
    const { rows } = await sql<StoredChunk>`
      update text_chunks c
      set embedding = v.embedding::vector, embedding_model = ${model}, embed_lease_until = null, embedded_at = now()
      from unnest(${slice.map((v) => v.id)}::uuid[], ${slice.map((v) => v.embedding)}::text[]) as v(id, embedding)
      where c.id = v.id and c.embed_lease_until = ${lease} and c.embedding is null
      returning c.id, c.embedding_source_id`.execute(db);
    stored.push(...rows);
  }
  return stored;
};

/**
 * Placed chunks read per LSH key: a version shares keys with hundreds of placed versions of its text, which point at
 * a few nodes; a handful a key finds them without reading them all.
 */
const NODE_CANDIDATES_PER_KEY = 8;

/**
 * Places stored vectors (migration 0018), one statement each so the database's other work gets its turn and each
 * placement sees the one before it, at most `limit`. A representative whose vector waits goes behind a graph node
 * when one is near enough: the node of a placed chunk that shares an LSH key with it (the node itself, or the node
 * that chunk went behind), nearest first, at cosine GRAPH_ANCHOR_COSINE or more, of its investigation and model.
 * Otherwise it goes into the HNSW graph (`indexed`: the insert costs 20–40 ms on the m 32 graph; going behind a
 * node costs none). Candidates and distances are materialized so the planner cannot read them from the HNSW index,
 * whose default scan would see only the nearest 40 of the whole table. The next vector is taken in the order of
 * text_chunks_unindexed_idx: unordered, the planner read it by a sequential scan (its statistics, taken after a large
 * import, said nearly every chunk waits), past every chunk placed since, and placing 100,000 slowed to 45 a second.
 * A key's chunks are filtered to the investigation only after the key's index probe (`offset 0` keeps the condition
 * out of the probe, as in groupNearDuplicates, chunk-store.ts, which says why). Returns how many it placed.
 */
export const placeStoredVectors = async (db: Kysely<Database>, limit: number): Promise<number> => {
  let placed = 0;
  while (placed < limit) {
    const { rows } = await sql<{ id: string }>`
      with next as materialized (
        select id, investigation_id, embedding_model, embedding, lsh_bands from text_chunks
        where embedding is not null and duplicate_of is null and not indexed and graph_via is null
        order by investigation_id
        limit 1 for update skip locked
      ),
      nodes as materialized (
        select distinct p.node as id
        from next n cross join lateral unnest(n.lsh_bands) k(key)
        cross join lateral (select node from (select coalesce(graph_via, id) as node, investigation_id from text_chunks
                                              where lsh_bands @> array[k.key] and duplicate_of is null
                                                and id <> n.id and (indexed or graph_via is not null)
                                              offset 0) keyed
                            where keyed.investigation_id = n.investigation_id
                            limit ${NODE_CANDIDATES_PER_KEY}) p
      ),
      distances as materialized (
        select a.id, a.embedding <=> n.embedding as distance
        from nodes x join text_chunks a on a.id = x.id cross join next n
        where a.indexed and a.graph_via is null and a.embedding_model = n.embedding_model
      ),
      node as (select id from distances where distance <= ${1 - GRAPH_ANCHOR_COSINE} order by distance, id limit 1)
      update text_chunks c set indexed = not exists (select 1 from node), graph_via = (select id from node)
      from next where c.id = next.id
      returning c.id`.execute(db);
    if (rows.length === 0) break;
    placed += rows.length;
  }
  return placed;
};

/**
 * Copies representatives' vectors to their near-duplicates (`duplicate_of`) that lack them or carry another model's:
 * those of the given representatives (after a store), those of one source (its text just written), or every such
 * duplicate (the sweeper's backstop). Returns the duplicates written, with their sources.
 */
export const fillDuplicates = async (
  db: Kysely<Database>,
  scope?: { representatives: readonly string[] } | { source: string },
): Promise<StoredChunk[]> => {
  if (scope && 'representatives' in scope && scope.representatives.length === 0) return [];
  const only =
    scope === undefined
      ? sql``
      : 'source' in scope
        ? sql`and d.embedding_source_id = ${scope.source}`
        : sql`and r.id = any(${[...scope.representatives]}::uuid[])`;
  const { rows } = await sql<StoredChunk>`
    update text_chunks d
    set embedding = r.embedding, embedding_model = r.embedding_model, embed_lease_until = null, embedded_at = now()
    from text_chunks r
    where d.duplicate_of = r.id and r.embedding is not null ${only}
      and (d.embedding is null or d.embedding_model is distinct from r.embedding_model)
    returning d.id, d.embedding_source_id`.execute(db);
  return rows;
};

/**
 * After a change of embedding model: takes the vectors of up to `limit` representatives of another model (or of
 * none recorded), of their duplicates and of the chunks placed behind them away, so they wait to be embedded again by `model` (retrieval searches
 * one model's vectors only, so the old ones are never used again anyway). Returns their sources.
 */
export const resetOtherModel = async (db: Kysely<Database>, model: string, limit: number): Promise<string[]> => {
  const { rows } = await sql<{ embedding_source_id: string }>`
    with stale as (
      select id from text_chunks
      -- spelt as ranges so that text_chunks_embedding_model_idx (migration 0015) answers it
      where embedding is not null and duplicate_of is null
        and (embedding_model < ${model} or embedding_model > ${model} or embedding_model is null)
      limit ${limit}
    )
    update text_chunks c set embedding = null, embedding_model = null, embedded_at = null, embed_lease_until = null, indexed = false,
      graph_via = null
    where c.id in (select id from stale) or c.duplicate_of in (select id from stale) or c.graph_via in (select id from stale)
    returning c.embedding_source_id`.execute(db);
  return [...new Set(rows.map((r) => r.embedding_source_id))];
};

export interface WaitingWork {
  /** chunks waiting for a vector (not of a source given up), leased or not */
  chunks: number;
  /** when the earliest of those now leased (or deferred) is free again; null when none is */
  nextFreeAt: Date | null;
}

/** How much waits, and when leased work comes free: whether (and when) a worker should look again. */
export const waitingWork = async (db: Kysely<Database>, maxAttempts: number): Promise<WaitingWork> => {
  const { rows } = await sql<{ chunks: number; next_free_at: Date | null }>`
    select count(*)::int as chunks, min(c.embed_lease_until) filter (where c.embed_lease_until > now()) as next_free_at
    from text_chunks c
    where c.embedding is null and c.duplicate_of is null
      and not exists (select 1 from embedding_sources s
                      where s.id = c.embedding_source_id and s.status = 'error' and s.attempts >= ${maxAttempts})`.execute(db);
  const row = rows[0];
  return { chunks: row?.chunks ?? 0, nextFreeAt: row?.next_free_at ? new Date(row.next_free_at) : null };
};
