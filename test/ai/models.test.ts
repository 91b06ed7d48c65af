/**
 * Bedrock model ids: the accepted forms, which id a region calls, and what IAM must allow for it.
 */
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import {
  embeddingModelProblem,
  GEOGRAPHY_REGIONS,
  geographyOfRegion,
  invocationResources,
  isCommercialRegion,
  modelIdForRegion,
  parseModelId,
  promptCacheMinimumTokens,
  splitProfileId,
  validInRegion,
  VECTOR_COLUMN_DIMENSIONS,
} from '#core/ai/models';
import { DEFAULT_AI_MODELS } from '#core/config';

const SONNET = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

describe('parseModelId', () => {
  test.each([
    [SONNET, { kind: 'foundation', id: SONNET, model: SONNET }],
    ['amazon.titan-embed-text-v2:0', { kind: 'foundation', id: 'amazon.titan-embed-text-v2:0', model: 'amazon.titan-embed-text-v2:0' }],
    ['amazon.titan-embed-text-v1', { kind: 'foundation', id: 'amazon.titan-embed-text-v1', model: 'amazon.titan-embed-text-v1' }],
    [
      'anthropic.claude-3-haiku-20240307-v1:0:200k',
      { kind: 'foundation', id: 'anthropic.claude-3-haiku-20240307-v1:0:200k', model: 'anthropic.claude-3-haiku-20240307-v1:0:200k' },
    ],
    [`us.${SONNET}`, { kind: 'profile', id: `us.${SONNET}`, geography: 'us', model: SONNET }],
    [`us-gov.${SONNET}`, { kind: 'profile', id: `us-gov.${SONNET}`, geography: 'us-gov', model: SONNET }],
    [`global.${SONNET}`, { kind: 'profile', id: `global.${SONNET}`, geography: 'global', model: SONNET }],
    [`apac.${SONNET}`, { kind: 'profile', id: `apac.${SONNET}`, geography: 'apac', model: SONNET }],
  ])('%s', (id, parsed) => {
    expect(parseModelId(id)).toEqual(parsed);
  });

  test.each([
    ['', /wrong form/],
    ['claude-sonnet-4-5', /wrong form/],
    ['Anthropic.Claude-Sonnet', /wrong form/],
    [`xx.${SONNET}`, /unknown inference profile geography 'xx'/],
    [`us.eu.${SONNET}`, /wrong form/],
    ['us.claude-sonnet-4-5', /'us\.' is an inference profile prefix, with no provider after it/],
    [`arn:aws:bedrock:us-east-1::foundation-model/${SONNET}`, /an ARN, not an id/],
    [`us.${SONNET} `, /wrong form/],
  ])('refuses %j, naming the accepted forms', (id, why) => {
    expect(() => parseModelId(id)).toThrow(why);
    expect(() => parseModelId(id)).toThrow(
      /expected a foundation model id .* or a system inference profile id .*us, us-gov, ca, eu, jp, au, apac, global/,
    );
  });

  test('the defaults are well-formed: current models through a US profile, embeddings in-region', () => {
    for (const id of Object.values(DEFAULT_AI_MODELS)) expect(() => parseModelId(id)).not.toThrow();
    expect(parseModelId(DEFAULT_AI_MODELS.analysis)).toMatchObject({ kind: 'profile', geography: 'us' });
    expect(parseModelId(DEFAULT_AI_MODELS.embedding)).toMatchObject({ kind: 'foundation' });
  });

  test('splitProfileId reads any id without validating it', () => {
    expect(splitProfileId(`eu.${SONNET}`)).toEqual({ geography: 'eu', model: SONNET });
    expect(splitProfileId(SONNET)).toBeUndefined();
    expect(splitProfileId('xx.whatever')).toBeUndefined();
    expect(splitProfileId('global.anything goes')).toEqual({ geography: 'global', model: 'anything goes' });
  });
});

describe('regions', () => {
  test('a region belongs to the narrowest geography that lists it; commercial regions are global sources', () => {
    expect(geographyOfRegion('us-west-2')).toBe('us');
    expect(geographyOfRegion('eu-west-1')).toBe('eu');
    expect(geographyOfRegion('ap-northeast-1')).toBe('jp');
    expect(geographyOfRegion('ap-southeast-4')).toBe('au');
    expect(geographyOfRegion('ap-south-1')).toBe('apac');
    expect(geographyOfRegion('ca-west-1')).toBe('ca');
    expect(geographyOfRegion('us-gov-west-1')).toBe('us-gov');
    expect(geographyOfRegion('sa-east-1')).toBeUndefined();
    expect(isCommercialRegion('sa-east-1')).toBe(true);
    expect(isCommercialRegion('us-gov-west-1')).toBe(false);
    expect(isCommercialRegion('cn-north-1')).toBe(false);
  });

  test('validInRegion: foundation ids anywhere, geographic profiles in their regions, global in commercial regions', () => {
    expect(validInRegion(parseModelId(SONNET), 'sa-east-1')).toBe(true);
    expect(validInRegion(parseModelId(`us.${SONNET}`), 'us-east-2')).toBe(true);
    expect(validInRegion(parseModelId(`us.${SONNET}`), 'eu-west-1')).toBe(false);
    expect(validInRegion(parseModelId(`apac.${SONNET}`), 'ap-northeast-1')).toBe(true);
    expect(validInRegion(parseModelId(`global.${SONNET}`), 'me-central-1')).toBe(true);
    expect(validInRegion(parseModelId(`global.${SONNET}`), 'us-gov-east-1')).toBe(false);
  });

  test('every geography lists only well-formed regions, each once', () => {
    for (const regions of Object.values(GEOGRAPHY_REGIONS)) {
      expect(new Set(regions).size).toBe(regions.length);
      for (const region of regions) expect(region).toMatch(/^[a-z]{2}(-gov)?-[a-z]+-\d$/);
    }
  });
});

describe('modelIdForRegion', () => {
  test.each([
    [SONNET, 'eu-west-1', SONNET],
    ['amazon.titan-embed-text-v2:0', 'us-west-2', 'amazon.titan-embed-text-v2:0'],
    [`global.${SONNET}`, 'ap-south-1', `global.${SONNET}`],
    [`us.${SONNET}`, 'us-west-2', `us.${SONNET}`],
    [`us.${SONNET}`, 'eu-west-1', `eu.${SONNET}`],
    [`eu.${SONNET}`, 'us-east-1', `us.${SONNET}`],
    [`us.${SONNET}`, 'ap-northeast-3', `jp.${SONNET}`],
    [`jp.${SONNET}`, 'ap-northeast-2', `apac.${SONNET}`],
    [`apac.${SONNET}`, 'ap-southeast-2', `apac.${SONNET}`],
    [`us.${SONNET}`, 'ca-central-1', `ca.${SONNET}`],
  ])('%s called in %s is %s', (id, region, expected) => {
    expect(modelIdForRegion(id, region)).toBe(expected);
  });

  test('a region with no profile of that kind is an error', () => {
    expect(() => modelIdForRegion(`us.${SONNET}`, 'sa-east-1')).toThrow(
      /region sa-east-1 has no geographic inference profiles .*use a global\. profile/,
    );
    expect(() => modelIdForRegion(`global.${SONNET}`, 'us-gov-west-1')).toThrow(
      /only commercial AWS regions can call; us-gov-west-1 is not one/,
    );
    expect(() => modelIdForRegion('us.nope', 'us-east-1')).toThrow(/not a Bedrock model id/);
  });
});

describe('invocationResources: what IAM must allow', () => {
  test('a foundation id: its model in the calling region', () => {
    expect(invocationResources('amazon.titan-embed-text-v2:0', 'us-west-2')).toEqual({
      model: 'amazon.titan-embed-text-v2:0',
      foundationModelRegions: ['us-west-2'],
      regionlessFoundationModel: false,
    });
  });

  test("a geographic profile: the region's profile, and the model in every destination region", () => {
    expect(invocationResources(`us.${SONNET}`, 'us-east-1')).toEqual({
      profile: `us.${SONNET}`,
      model: SONNET,
      foundationModelRegions: GEOGRAPHY_REGIONS.us,
      regionlessFoundationModel: false,
    });
    // re-prefixed for the region it is called from
    expect(invocationResources(`us.${SONNET}`, 'eu-central-1')).toEqual({
      profile: `eu.${SONNET}`,
      model: SONNET,
      foundationModelRegions: GEOGRAPHY_REGIONS.eu,
      regionlessFoundationModel: false,
    });
  });

  test('a global profile: the profile and model in the calling region, and the region-less model', () => {
    expect(invocationResources(`global.${SONNET}`, 'us-west-2')).toEqual({
      profile: `global.${SONNET}`,
      model: SONNET,
      foundationModelRegions: ['us-west-2'],
      regionlessFoundationModel: true,
    });
  });
});

describe('embedding models', () => {
  test('the vector column is what migration 0001 created', () => {
    expect(VECTOR_COLUMN_DIMENSIONS).toBe(EMBEDDING_DIMENSIONS);
  });

  test('Cohere Embed v3 fits the column, as a foundation id or behind a profile; v4 (1536 dimensions) and other models do not', () => {
    expect(embeddingModelProblem('cohere.embed-english-v3')).toBeUndefined();
    expect(embeddingModelProblem('cohere.embed-multilingual-v3')).toBeUndefined();
    expect(embeddingModelProblem('us.cohere.embed-v4:0')).toMatch(
      /gives 1536-dimensional vectors.*vector\(1024\); use cohere.embed-english-v3 or cohere.embed-multilingual-v3/,
    );
    expect(embeddingModelProblem('amazon.titan-embed-text-v2:0')).toMatch(/not an embedding model the service can call/);
    expect(() => embeddingModelProblem('not an id')).toThrow(/is not a Bedrock model id/);
  });
});

describe('prompt caching', () => {
  test('the minimum prefix a model caches, by the longest prefix of its name, with or without a profile; none for the rest', () => {
    expect(promptCacheMinimumTokens('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(1024);
    expect(promptCacheMinimumTokens('anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(1024);
    expect(promptCacheMinimumTokens(DEFAULT_AI_MODELS.quality)).toBe(4096); // Haiku 4.5
    expect(promptCacheMinimumTokens('eu.anthropic.claude-sonnet-4-20250514-v1:0')).toBe(1024);
    expect(promptCacheMinimumTokens('anthropic.claude-3-5-haiku-20241022-v1:0')).toBe(2048);
    expect(promptCacheMinimumTokens('anthropic.claude-opus-4-5-20251101-v1:0')).toBe(4096);
    expect(promptCacheMinimumTokens('anthropic.claude-opus-4-20250514-v1:0')).toBe(1024);
    // no explicit cache points: Claude 3.5 Sonnet v2 (preview only), Llama, an embedding model, a malformed id
    expect(promptCacheMinimumTokens('anthropic.claude-3-5-sonnet-20241022-v2:0')).toBeUndefined();
    expect(promptCacheMinimumTokens('meta.llama3-3-70b-instruct-v1:0')).toBeUndefined();
    expect(promptCacheMinimumTokens(DEFAULT_AI_MODELS.embedding)).toBeUndefined();
    expect(promptCacheMinimumTokens('not a model')).toBeUndefined();
  });
});
