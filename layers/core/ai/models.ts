/**
 * Bedrock model ids, and which id to call in which region. Pure (no SDK, no environment), so the AI
 * gateway, the CDK stage configuration and grants, and the twin's IAM check and Bedrock stand-in all
 * read one set of rules.
 *
 * A model id is either
 * - a foundation model id, `<provider>.<model>`: `anthropic.claude-sonnet-4-5-20250929-v1:0`,
 *   `cohere.embed-english-v3`; called in a region, it runs in that region; or
 * - a system inference profile id, `<geography>.<provider>.<model>`:
 *   `us.anthropic.claude-sonnet-4-5-20250929-v1:0`. Called from a source region of its geography, Bedrock
 *   routes the request to one of the geography's destination regions (`global.`: any commercial region).
 *   Current Anthropic models on Bedrock are served only through inference profiles.
 */

export type Geography = 'us' | 'eu' | 'apac' | 'jp' | 'au' | 'ca' | 'us-gov' | 'global';

/**
 * Regions of each geography's system inference profiles: a profile is called from these regions
 * (source) and routes among them (destination). AWS's per-model tables can be narrower, which is why
 * the README's pre-flight checklist checks the chosen profile with `aws bedrock list-inference-profiles`.
 * `global` is every commercial region (below). Order matters where geographies overlap: a region's own
 * geography is the first that lists it, so Tokyo and Osaka are `jp`, Sydney and Melbourne `au` (the
 * profiles current Anthropic models offer there), not `apac`.
 */
export const GEOGRAPHY_REGIONS: Readonly<Record<Exclude<Geography, 'global'>, readonly string[]>> = {
  us: ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'],
  'us-gov': ['us-gov-east-1', 'us-gov-west-1'],
  ca: ['ca-central-1', 'ca-west-1'],
  eu: ['eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3'],
  jp: ['ap-northeast-1', 'ap-northeast-3'],
  au: ['ap-southeast-2', 'ap-southeast-4'],
  apac: [
    'ap-northeast-1',
    'ap-northeast-2',
    'ap-northeast-3',
    'ap-south-1',
    'ap-south-2',
    'ap-southeast-1',
    'ap-southeast-2',
    'ap-southeast-3',
    'ap-southeast-4',
  ],
};

const GEOGRAPHIES: readonly Geography[] = [...(Object.keys(GEOGRAPHY_REGIONS) as Geography[]), 'global'];

/** A region of the commercial partition (`aws`): not GovCloud, China or the isolated partitions. */
export const isCommercialRegion = (region: string): boolean =>
  /^[a-z]{2}-[a-z]+-\d+$/.test(region) && !/^(us-gov|cn|us-iso[a-z]*)-/.test(region);

export type ModelId =
  | { kind: 'foundation'; id: string; model: string }
  | { kind: 'profile'; id: string; geography: Geography; model: string };

const SEGMENT = '[a-z0-9][a-z0-9-]*';
/** `[<geography>.]<provider>.<model>[:<version>…]`: lower case, the model name without dots. */
const MODEL_ID = new RegExp(`^(?:(${SEGMENT})\\.)?(${SEGMENT})\\.(${SEGMENT}(?::[a-z0-9]+)*)$`);

const EXPECTED_FORMS =
  'expected a foundation model id (<provider>.<model>, e.g. anthropic.claude-sonnet-4-5-20250929-v1:0, cohere.embed-english-v3) ' +
  `or a system inference profile id (<geography>.<provider>.<model>, geography one of ${GEOGRAPHIES.join(', ')}; e.g. us.anthropic.claude-sonnet-4-5-20250929-v1:0)`;

const isGeography = (prefix: string | undefined): prefix is Geography => (GEOGRAPHIES as readonly string[]).includes(prefix ?? '');

/**
 * The geography and foundation model of an inference profile id, or undefined for anything else. No
 * validation: the twin reads ids of arbitrary requests with it.
 */
export const splitProfileId = (id: string): { geography: Geography; model: string } | undefined => {
  const dot = id.indexOf('.');
  const prefix = id.slice(0, dot);
  return dot > 0 && isGeography(prefix) ? { geography: prefix, model: id.slice(dot + 1) } : undefined;
};

/** A model id as a foundation model or a system inference profile; a malformed id throws naming the accepted forms. */
export const parseModelId = (id: string): ModelId => {
  const match = MODEL_ID.exec(id);
  const malformed = (why: string) => new Error(`'${id}' is not a Bedrock model id (${why}): ${EXPECTED_FORMS}`);
  if (!match) throw malformed(id.startsWith('arn:') ? 'an ARN, not an id' : 'wrong form');
  const [, prefix, provider] = match;
  if (prefix === undefined) {
    if (isGeography(provider)) throw malformed(`'${provider}.' is an inference profile prefix, with no provider after it`);
    return { kind: 'foundation', id, model: id };
  }
  if (!isGeography(prefix)) throw malformed(`unknown inference profile geography '${prefix}'`);
  return { kind: 'profile', id, geography: prefix, model: id.slice(prefix.length + 1) };
};

/** The geography a region's own system inference profiles carry, if any. */
export const geographyOfRegion = (region: string): Exclude<Geography, 'global'> | undefined =>
  (Object.keys(GEOGRAPHY_REGIONS) as Exclude<Geography, 'global'>[]).find((geography) => GEOGRAPHY_REGIONS[geography].includes(region));

/** Whether a geography's profiles can be called from `region` (a source region). */
export const profileValidIn = (geography: Geography, region: string): boolean =>
  geography === 'global' ? isCommercialRegion(region) : GEOGRAPHY_REGIONS[geography].includes(region);

/** Whether Bedrock accepts the id when called from `region` (a foundation id: always; whether the model runs there is model access). */
export const validInRegion = (model: ModelId, region: string): boolean =>
  model.kind === 'foundation' || profileValidIn(model.geography, region);

/**
 * The id to call in `region`: a foundation id and a valid profile unchanged; a geographic profile not
 * valid there gets the region's own geography (`us.…` in eu-west-1 → `eu.…`), so the fallback region
 * keeps working with the same model. Throws when the region has no profile of that kind.
 */
export const modelIdForRegion = (id: string, region: string): string => {
  const model = parseModelId(id);
  if (model.kind === 'foundation' || validInRegion(model, region)) return id;
  if (model.geography === 'global') {
    throw new Error(`'${id}' is a global inference profile, which only commercial AWS regions can call; ${region} is not one`);
  }
  const geography = geographyOfRegion(region);
  if (geography === undefined) {
    throw new Error(
      `'${id}' is an inference profile, and region ${region} has no geographic inference profiles ` +
        `(they cover ${Object.values(GEOGRAPHY_REGIONS)
          .flat()
          .filter((r, i, all) => all.indexOf(r) === i)
          .join(', ')}); ` +
        'use a global. profile or a foundation model id, or another region',
    );
  }
  return `${geography}.${model.model}`;
};

/**
 * What an IAM policy must allow for calling `id` from `region` (AWS's documented requirements): the
 * profile in the calling region, if it is one; its foundation model in each region it may run in; and
 * for a global profile also the region-less foundation-model ARN, which stands for every destination.
 */
export interface InvocationResources {
  /** the inference profile id called in this region (after modelIdForRegion), if any */
  profile?: string;
  /** the foundation model id */
  model: string;
  /** regions whose foundation-model ARN must be allowed */
  foundationModelRegions: string[];
  /** also `arn:<partition>:bedrock:::foundation-model/<model>` (global profiles) */
  regionlessFoundationModel: boolean;
}

export const invocationResources = (id: string, region: string): InvocationResources => {
  const inRegion = parseModelId(modelIdForRegion(id, region));
  if (inRegion.kind === 'foundation') return { model: inRegion.model, foundationModelRegions: [region], regionlessFoundationModel: false };
  const { geography } = inRegion;
  return {
    profile: inRegion.id,
    model: inRegion.model,
    foundationModelRegions: geography === 'global' ? [region] : [...GEOGRAPHY_REGIONS[geography]],
    regionlessFoundationModel: geography === 'global',
  };
};

// ---- embedding models ------------------------------------------------------------------------

/**
 * Dimensions of `text_chunks.embedding`, a `vector(1024)` column (migration 0001's EMBEDDING_DIMENSIONS;
 * test/ai/models.test.ts holds the two equal): the configured embedding model must give vectors of this size.
 */
export const VECTOR_COLUMN_DIMENSIONS = 1024;

/**
 * The embedding models the service can call — Cohere Embed on Bedrock, one InvokeModel body for all of them
 * (`{ texts, input_type, truncate, embedding_types }`, up to 96 texts a request) — with the size of their vectors.
 * Embed v4 answers 1536 dimensions unless asked otherwise, so it does not fit the column.
 */
const EMBEDDING_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'cohere.embed-english-v3': 1024,
  'cohere.embed-multilingual-v3': 1024,
  'cohere.embed-v4:0': 1536,
};

/**
 * Why `id` cannot be the embedding model (a configuration error, said so at synth and at the first request), or
 * undefined when it can: it must be a Cohere Embed model the service knows, giving vectors of the column's size.
 */
export const embeddingModelProblem = (id: string): string | undefined => {
  const { model } = parseModelId(id);
  const dimensions = EMBEDDING_MODEL_DIMENSIONS[model];
  const fitting = Object.keys(EMBEDDING_MODEL_DIMENSIONS).filter((m) => EMBEDDING_MODEL_DIMENSIONS[m] === VECTOR_COLUMN_DIMENSIONS);
  if (dimensions === undefined)
    return `'${id}' is not an embedding model the service can call: it sends the Cohere Embed request body, to one of ${fitting.join(', ')}`;
  if (dimensions !== VECTOR_COLUMN_DIMENSIONS)
    return (
      `'${id}' gives ${dimensions}-dimensional vectors, and text_chunks.embedding is vector(${VECTOR_COLUMN_DIMENSIONS}); ` +
      `use ${fitting.join(' or ')}`
    );
  return undefined;
};

/**
 * Prompt caching on Bedrock (Converse `cachePoint` blocks), by model: the fewest tokens a cached prefix must have
 * for Bedrock to cache it (a shorter one is answered as usual, uncached), or undefined for a model that does not
 * cache prompts this way. Anthropic's published minimums per checkpoint; the longest prefix of the model's name wins.
 */
const PROMPT_CACHE_MINIMUM_TOKENS: readonly (readonly [prefix: string, tokens: number])[] = [
  ['anthropic.claude-3-7-sonnet', 1024],
  ['anthropic.claude-3-5-haiku', 2048],
  ['anthropic.claude-sonnet-4-2025', 1024],
  ['anthropic.claude-sonnet-4-5', 1024],
  ['anthropic.claude-sonnet-4-6', 2048],
  ['anthropic.claude-opus-4-2025', 1024],
  ['anthropic.claude-opus-4-1', 1024],
  ['anthropic.claude-opus-4-5', 4096],
  ['anthropic.claude-opus-4-6', 4096],
  ['anthropic.claude-haiku-4-5', 4096],
];

export const promptCacheMinimumTokens = (id: string): number | undefined => {
  const model = splitProfileId(id)?.model ?? id; // no validation: the twin's stand-in reads any request's id with it
  const matches = PROMPT_CACHE_MINIMUM_TOKENS.filter(([prefix]) => model.startsWith(prefix));
  return matches.sort((a, b) => b[0].length - a[0].length)[0]?.[1];
};
