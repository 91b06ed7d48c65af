/**
 * Local Bedrock Runtime stand-in for the twin: one plain HTTP/1.1 server on 127.0.0.1 that serves
 * every region (the region of a call is read from its SigV4 credential scope,
 * `Credential=AKID/DATE/REGION/bedrock/aws4_request`). The real BedrockRuntimeClient works against
 * it unchanged given `endpoint: standin.url` and `requestHandler: new NodeHttpHandler()`.
 *
 * Operations (REST-JSON, like Bedrock Runtime):
 *   POST /model/{modelId}/converse   text models (anthropic.*, amazon.nova-*, meta.*, ..., with or
 *                                    without an inference-profile prefix such as `us.`, or as an ARN):
 *                                    deterministic extractive answer, see ./text.ts; a
 *                                    geographic profile called from outside its geography is refused
 *                                    (400 ValidationException, as Bedrock does); prompt caching as Bedrock's: the text
 *                                    up to the last `cachePoint` block (≤ 4), of a model that caches, is written to
 *                                    or read from a cache per region and model that keeps it 5 minutes after each use
 *   POST /model/{modelId}/converse-stream  the same answer streamed as Bedrock streams it: an AWS event stream
 *                                    (application/vnd.amazon.eventstream) of messageStart, the text in
 *                                    contentBlockDelta parts, contentBlockStop, messageStop and metadata (usage)
 *   POST /model/{modelId}/invoke     Cohere Embed v3 (cohere.embed-english-v3, cohere.embed-multilingual-v3):
 *                                    Bedrock's body (`texts` ≤ 96, each ≤ 2,048 characters unless `truncate`
 *                                    START or END cuts it, `input_type` required, `embedding_types`), validated
 *                                    as Bedrock does (400 ValidationException); one 1024-dimension vector per
 *                                    text, by meaning (a sentence-embedding model) or by feature hashing as
 *                                    the `embedder` option says (./standin-embedder.ts), the answer in Bedrock's shape
 * Errors: status, header `x-amzn-ErrorType: <Name>`, body `{"message": "..."}`; unknown path or
 * model 404 ResourceNotFoundException, bad input 400 ValidationException, unsigned 403
 * AccessDeniedException.
 *
 * Fault injection per region (RegionFaults), deterministic (no randomness):
 *   outage: true       every call 503 ServiceUnavailableException
 *   throttleRatio r    429 ThrottlingException on call n (counted per region since its faults were
 *                      set) when floor(n·r) > floor((n−1)·r): 0.5 throttles every second call, 1 all
 *   errorRatio r       500 InternalServerException, same schedule over the calls not throttled
 *   latencyMs ms       every call (faulted or not) answers ms later (a stream sends nothing before)
 *   stallMs ms         a streamed answer stops for ms after its first part (a stream that stalls)
 *   refuseText s       an embedding request holding a text that contains s is refused (400 ValidationException,
 *                      as the model refuses an input it will not embed): a poison text for the tests
 * Set faults with `startBedrockStandin({ faults })`, `standin.setFaults(region, faults)`, over
 * unsigned HTTP control routes:
 *   PUT    /_standin/faults/{region}   body: RegionFaults JSON (replaces that region's faults)
 *   DELETE /_standin/faults[/{region}] clear all faults (or one region's)
 *   GET    /_standin/faults            current faults by region
 *   GET    /_standin/stats             calls by region and outcome (ok/throttled/error/unavailable/rejected), and
 *                                       `texts`: the texts of the embedding requests it answered
 * or at start from the environment variable STANDIN_FAULTS, a JSON object keyed by region, e.g.
 *   STANDIN_FAULTS='{"us-east-1":{"throttleRatio":1},"us-west-2":{"errorRatio":0.5,"latencyMs":200}}'
 * (options.faults wins over STANDIN_FAULTS for the same region; an invalid value fails the start).
 *
 * Pace (StandinPace): how long a healthy model takes, in every region — by default it answers at once. Keyed by the
 * start of a bare model id (`anthropic.claude-sonnet`, `cohere.embed`), each a first part after `firstTokenMs` and
 * the rest of a text answer spread over `answerMs` (a Converse answer comes after both), so the pipeline can be run
 * at Bedrock's speed: `startBedrockStandin({ pace })`, `standin.setPace(pace)`, or STANDIN_PACE at start, e.g.
 *   STANDIN_PACE='{"anthropic.claude-sonnet":{"firstTokenMs":1500,"answerMs":28000},"cohere.embed":{"firstTokenMs":300}}'
 * A fault's latencyMs comes on top of it.
 */
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { profileValidIn, promptCacheMinimumTokens, splitProfileId } from '#core/ai/models';
import { standinEmbedder, type StandinEmbedder, type StandinEmbedderName } from './embedder';
import { composeAnswer, estimateTokens } from './text';

export interface RegionFaults {
  /** share of calls answered 429 ThrottlingException, 0..1 */
  throttleRatio?: number;
  /** share of the remaining calls answered 500 InternalServerException, 0..1 */
  errorRatio?: number;
  /** added delay for every call, in milliseconds */
  latencyMs?: number;
  /** a streamed answer's silence after its first part, in milliseconds */
  stallMs?: number;
  /** every call 503 ServiceUnavailableException */
  outage?: boolean;
  /** an embedding request with a text containing this is refused (400 ValidationException) */
  refuseText?: string;
}

/** A healthy model's time to answer (see the header): its first part, then the rest of a text answer. */
export interface ModelPace {
  firstTokenMs: number;
  answerMs?: number;
}
/** keyed by the start of a bare model id; the longest key that matches wins */
export type StandinPace = Partial<Record<string, ModelPace>>;

type Outcome = 'ok' | 'throttled' | 'error' | 'unavailable' | 'rejected';
type RegionStats = Record<Outcome | 'total' | 'texts', number>;

export interface BedrockStandinOptions {
  /** 0 (default) picks a free port */
  port?: number;
  host?: '127.0.0.1';
  faults?: Partial<Record<string, RegionFaults>>;
  /** how long healthy models take (options.pace wins over STANDIN_PACE) */
  pace?: StandinPace;
  /** where STANDIN_FAULTS and STANDIN_PACE are read from; defaults to process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * how texts are embedded: 'meaning' (default) with a sentence-embedding model, so relevant passages score high
   * as with Cohere; 'hashing' by word overlap, far faster, for tests and benches of the pipeline rather than of meaning
   */
  embedder?: StandinEmbedderName;
  /** the clock of the prompt cache, in epoch milliseconds; defaults to Date.now */
  now?: () => number;
}

export interface BedrockStandin {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** replace a region's faults and restart its fault schedule */
  setFaults(region: string, faults: RegionFaults): void;
  /** clear one region's faults, or all */
  clearFaults(region?: string): void;
  faults(): Record<string, RegionFaults>;
  /** replace how long healthy models take ({} answers at once) */
  setPace(pace: StandinPace): void;
  /** model calls by region and outcome since start (unsigned calls count under 'unknown'), and the texts embedded */
  stats(): Record<string, RegionStats>;
  stop(): Promise<void>;
}

const FAULTS_ENV = 'STANDIN_FAULTS';
const PACE_ENV = 'STANDIN_PACE';
/** The Cohere Embed models the stand-in serves, and their vectors' size. */
const EMBEDDING_MODELS: Readonly<Record<string, number>> = { 'cohere.embed-english-v3': 1024, 'cohere.embed-multilingual-v3': 1024 };
/** Bedrock's limits of a Cohere Embed request */
const MAX_EMBED_TEXTS = 96;
const MAX_EMBED_TEXT_CHARS = 2048;
const INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering'];
const TRUNCATE = ['NONE', 'START', 'END'];
const EMBEDDING_TYPES = ['float', 'int8', 'uint8', 'binary', 'ubinary'];
/** Bedrock's prompt cache: the most cachePoints a request may hold, and how long a prefix stays cached after its last use */
const MAX_CACHE_POINTS = 4;
const PROMPT_CACHE_TTL_MS = 5 * 60_000;

/** An error answered in the AWS JSON protocol shape; `outcome` is how stats() counts it. */
class StandinError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly outcome: Outcome = 'rejected',
  ) {
    super(message);
  }
}

const invalid = (message: string): StandinError => new StandinError(400, 'ValidationException', message);
const notFound = (message: string): StandinError => new StandinError(404, 'ResourceNotFoundException', message);

// ---- pure helpers ----------------------------------------------------------------------------

/** Whether call `n` (1-based) of a schedule with share `ratio` is hit: exactly ⌊n·ratio⌋ of the first n are. */
export const scheduledHit = (n: number, ratio: number): boolean => Math.floor(n * ratio + 1e-9) > Math.floor((n - 1) * ratio + 1e-9);

/** The region of a SigV4 `Authorization` header's credential scope, if it is a bedrock scope. */
export const regionFromAuthorization = (authorization: string | undefined): string | undefined =>
  authorization?.match(/Credential=[^/,\s]+\/\d{8}\/([a-z0-9-]+)\/bedrock\/aws4_request/)?.[1];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validates a RegionFaults value (from JSON); throws an Error naming `where` otherwise. */
const parseRegionFaults = (value: unknown, where = 'faults'): RegionFaults => {
  if (!isObject(value)) throw new Error(`${where} must be a JSON object`);
  const faults: RegionFaults = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'throttleRatio' || key === 'errorRatio') {
      if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new Error(`${where}.${key} must be a number from 0 to 1`);
      faults[key] = v;
    } else if (key === 'latencyMs' || key === 'stallMs') {
      faults[key] = milliseconds(v, `${where}.${key}`);
    } else if (key === 'outage') {
      if (typeof v !== 'boolean') throw new Error(`${where}.outage must be a boolean`);
      faults.outage = v;
    } else if (key === 'refuseText') {
      if (typeof v !== 'string' || v === '') throw new Error(`${where}.refuseText must be a non-empty string`);
      faults.refuseText = v;
    } else {
      throw new Error(`${where}: unknown key '${key}' (expected throttleRatio, errorRatio, latencyMs, stallMs, outage, refuseText)`);
    }
  }
  return faults;
};

/** The JSON value of an environment variable; undefined when it is unset or blank. */
const parseJsonEnv = (raw: string | undefined, name: string): unknown => {
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${name} is not valid JSON`);
  }
};

/** Parses STANDIN_FAULTS: a JSON object keyed by region, each value a RegionFaults. */
export const parseFaultsEnv = (raw: string | undefined): Record<string, RegionFaults> => {
  const value = parseJsonEnv(raw, FAULTS_ENV);
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`${FAULTS_ENV} must be a JSON object keyed by region`);
  return Object.fromEntries(Object.entries(value).map(([region, f]) => [region, parseRegionFaults(f, `${FAULTS_ENV}.${region}`)]));
};

const milliseconds = (value: unknown, where: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${where} must be a number >= 0`);
  return value;
};

/** Checks a StandinPace (from options, setPace or STANDIN_PACE). */
export const parsePace = (value: unknown, where = 'pace'): StandinPace => {
  if (!isObject(value)) throw new Error(`${where} must be a JSON object keyed by the start of a model id`);
  return Object.fromEntries(
    Object.entries(value).map(([model, pace]) => {
      if (!isObject(pace)) throw new Error(`${where}.${model} must be an object with firstTokenMs (and answerMs)`);
      const extra = Object.keys(pace).find((key) => key !== 'firstTokenMs' && key !== 'answerMs');
      if (extra !== undefined) throw new Error(`${where}.${model}: unknown key '${extra}' (expected firstTokenMs, answerMs)`);
      const out: ModelPace = { firstTokenMs: milliseconds(pace.firstTokenMs, `${where}.${model}.firstTokenMs`) };
      if (pace.answerMs !== undefined) out.answerMs = milliseconds(pace.answerMs, `${where}.${model}.answerMs`);
      return [model, out];
    }),
  );
};

/** The pace of a bare model id: the entry with the longest key it starts with; none answers at once. */
export const paceOf = (pace: StandinPace, baseModel: string): Required<ModelPace> => {
  const key = Object.keys(pace)
    .filter((k) => baseModel.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  const found = key === undefined ? undefined : pace[key];
  return { firstTokenMs: found?.firstTokenMs ?? 0, answerMs: found?.answerMs ?? 0 };
};

/** The id an ARN names (`…:inference-profile/us.anthropic…` → `us.anthropic…`), or the id itself. */
const resourceId = (modelId: string): string => modelId.replace(/^arn:[^:]+:bedrock:[^:]*:[^:]*:[a-z-]+\//, '');

/** The bare model id of an id, an inference profile id (`us.anthropic...`) or an ARN. */
const baseModelId = (modelId: string): string => {
  const id = resourceId(modelId);
  return splitProfileId(id)?.model ?? id;
};

/** Bedrock refuses a geographic inference profile called from outside its geography (`eu.…` in us-east-1), as it does a malformed id. */
const checkProfileRegion = (modelId: string, region: string): void => {
  const profile = splitProfileId(resourceId(modelId));
  if (profile && !profileValidIn(profile.geography, region)) throw invalid('The provided model identifier is invalid.');
};

const TEXT_MODEL =
  /^(anthropic\.|amazon\.nova-|amazon\.titan-text-|meta\.|mistral\.|cohere\.command|ai21\.|deepseek\.|openai\.|qwen\.|writer\.)/;

/** Whether the stand-in serves a model (a bare model id): one of the text models' families, or a Cohere Embed model. */
export const servesModel = (modelId: string): boolean => TEXT_MODEL.test(modelId) || modelId in EMBEDDING_MODELS;

// ---- operations ------------------------------------------------------------------------------

interface ConverseOutput {
  output: { message: { role: 'assistant'; content: Array<{ text: string }> } };
  stopReason: 'end_turn';
  /** the cache fields only for a request with a cachePoint; inputTokens then counts only the input not cached */
  usage: { inputTokens: number; outputTokens: number; totalTokens: number; cacheReadInputTokens?: number; cacheWriteInputTokens?: number };
  metrics: { latencyMs: number };
}

/** Whether a cache key was present (a read) or not (a write); either way it is kept for the TTL from now. */
type PromptCache = (key: string) => 'read' | 'write';

/** Text of the `text` blocks of a list of content (or system) blocks. */
const blockText = (blocks: unknown): string =>
  Array.isArray(blocks)
    ? blocks
        .filter(isObject)
        .map((block) => block.text)
        .filter((text): text is string => typeof text === 'string')
        .join('\n')
    : '';

/**
 * The text a request caches: its text up to its last cachePoint block, in Bedrock's order (the system blocks, then the
 * messages' content) and joined as its input is counted; undefined without a cachePoint. Refuses what Bedrock refuses.
 */
const cachedPrefix = (modelId: string, contents: unknown[]): { text: string; minimumTokens: number } | undefined => {
  const points = contents.flatMap((blocks, list) =>
    Array.isArray(blocks)
      ? blocks.flatMap((block, at) => (isObject(block) && 'cachePoint' in block ? [{ list, at, point: block.cachePoint }] : []))
      : [],
  );
  const last = points.at(-1);
  if (last === undefined) return undefined;
  if (!points.every(({ point }) => isObject(point) && point.type === 'default')) throw invalid("A cachePoint's type must be 'default'.");
  const minimumTokens = promptCacheMinimumTokens(baseModelId(modelId));
  if (minimumTokens === undefined) throw invalid(`The model ${modelId} does not support prompt caching (cachePoint).`);
  if (points.length > MAX_CACHE_POINTS)
    throw invalid(`A request may hold at most ${MAX_CACHE_POINTS} cachePoint blocks; this one holds ${points.length}.`);
  const text = [...contents.slice(0, last.list), (contents[last.list] as unknown[]).slice(0, last.at)].map(blockText).join('\n');
  return { text, minimumTokens };
};

const converse = (
  modelId: string,
  body: unknown,
  call: { region: string; latencyMs: number; promptCache: PromptCache },
): ConverseOutput => {
  const base = baseModelId(modelId);
  if (base.includes('embed')) throw invalid(`The model ${modelId} does not support the Converse operation.`);
  if (!TEXT_MODEL.test(base)) throw notFound(`Model ${modelId} is not known to the Bedrock stand-in.`);
  if (!isObject(body)) throw invalid('Malformed input request: the request body must be a JSON object.');
  const { messages, system, requestMetadata } = body;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('The messages field must be a non-empty list.');
  if (!messages.every((m) => isObject(m) && (m.role === 'user' || m.role === 'assistant') && Array.isArray(m.content)))
    throw invalid('Each message needs a role (user or assistant) and a content list.');
  if (isObject(messages[0]) && messages[0].role !== 'user') throw invalid('A conversation must start with a user message.');
  if (system !== undefined && !Array.isArray(system)) throw invalid('The system field must be a list.');

  const systemText = blockText(system);
  const userText = messages
    .filter((m) => isObject(m) && m.role === 'user')
    .map((m) => blockText(isObject(m) ? m.content : undefined))
    .join('\n\n');
  const purpose = isObject(requestMetadata) && typeof requestMetadata.purpose === 'string' ? requestMetadata.purpose : undefined;
  const contents = [system, ...messages.map((m) => (isObject(m) ? m.content : undefined))];
  const prefix = cachedPrefix(modelId, contents);
  const text = composeAnswer(systemText, userText, purpose);
  const inputTokens = estimateTokens(contents.map(blockText).join('\n'));
  const outputTokens = estimateTokens(text);
  const usage: ConverseOutput['usage'] = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (prefix) {
    const prefixTokens = estimateTokens(prefix.text);
    // a prefix under the model's minimum is answered uncached, as Bedrock does
    const cached =
      prefixTokens >= prefix.minimumTokens
        ? call.promptCache(`${call.region} ${base} ${createHash('sha256').update(prefix.text).digest('hex')}`)
        : undefined;
    usage.cacheReadInputTokens = cached === 'read' ? prefixTokens : 0;
    usage.cacheWriteInputTokens = cached === 'write' ? prefixTokens : 0;
    usage.inputTokens -= usage.cacheReadInputTokens + usage.cacheWriteInputTokens;
  }
  return {
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason: 'end_turn',
    usage,
    metrics: { latencyMs: call.latencyMs },
  };
};

type EmbeddingOutput =
  | { id: string; texts: string[]; embeddings: number[][]; response_type: 'embeddings_floats' }
  | { id: string; texts: string[]; embeddings: Partial<Record<string, number[][]>>; response_type: 'embeddings_by_type' };

const malformed = (message: string): StandinError =>
  invalid(`Malformed input request: ${message}, please reformat your input and try again.`);

/** A vector in one of Cohere's compressed types (the stand-in's own quantisation: enough to have the right shape). */
const quantised = (vector: number[], type: string): number[] => {
  if (type === 'int8') return vector.map((v) => Math.max(-128, Math.min(127, Math.round(v * 127))));
  if (type === 'uint8') return vector.map((v) => Math.max(0, Math.min(255, Math.round(v * 127) + 128)));
  // binary, ubinary: one bit a dimension, packed eight to a byte
  const bytes = Array.from({ length: Math.ceil(vector.length / 8) }, (_, i) =>
    vector.slice(i * 8, i * 8 + 8).reduce((byte, v, bit) => byte | ((v > 0 ? 1 : 0) << (7 - bit)), 0),
  );
  return type === 'binary' ? bytes.map((b) => b - 128) : bytes;
};

const invokeEmbedding = async (
  modelId: string,
  body: unknown,
  refuseText: string | undefined,
  embed: StandinEmbedder,
): Promise<EmbeddingOutput> => {
  const dimensions = EMBEDDING_MODELS[baseModelId(modelId)];
  if (dimensions === undefined)
    throw notFound(
      `Model ${modelId} is not supported by InvokeModel on the Bedrock stand-in (only ${Object.keys(EMBEDDING_MODELS).join(', ')}).`,
    );
  if (!isObject(body)) throw malformed('the request body must be a JSON object');
  const extra = Object.keys(body).find((key) => !['texts', 'input_type', 'truncate', 'embedding_types', 'images'].includes(key));
  if (extra !== undefined) throw malformed(`#: extraneous key [${extra}] is not permitted`);
  const { texts, input_type, truncate = 'NONE', embedding_types } = body;
  if (body.images !== undefined) throw malformed('#/images: image inputs are not supported by the Bedrock stand-in');
  if (!Array.isArray(texts)) throw malformed('#: required key [texts] not found');
  if (texts.length > MAX_EMBED_TEXTS) throw malformed(`#/texts: expected maxItems: ${MAX_EMBED_TEXTS}, actual: ${texts.length}`);
  const notText = texts.findIndex((t) => typeof t !== 'string');
  if (notText >= 0) throw malformed(`#/texts/${notText}: expected type: String`);
  if (input_type === undefined) throw malformed('#: required key [input_type] not found');
  if (typeof input_type !== 'string' || !INPUT_TYPES.includes(input_type))
    throw malformed(`#/input_type: ${JSON.stringify(input_type)} is not a valid enum value`);
  if (typeof truncate !== 'string' || !TRUNCATE.includes(truncate))
    throw malformed(`#/truncate: ${JSON.stringify(truncate)} is not a valid enum value`);
  if (embedding_types !== undefined && (!Array.isArray(embedding_types) || !embedding_types.every((t) => EMBEDDING_TYPES.includes(t))))
    throw malformed(`#/embedding_types: expected a list of ${EMBEDDING_TYPES.join(', ')}`);
  const strings = texts as string[];
  const tooLong = strings.findIndex((t) => t.length > MAX_EMBED_TEXT_CHARS);
  if (tooLong >= 0 && truncate === 'NONE')
    throw malformed(`#/texts/${tooLong}: expected maxLength: ${MAX_EMBED_TEXT_CHARS}, actual: ${strings[tooLong]!.length}`);
  if (refuseText !== undefined && strings.some((t) => t.includes(refuseText)))
    throw invalid('The model could not process one of the input texts.');

  // truncation in characters stands in for the model's truncation in tokens
  const kept = strings.map((t) =>
    t.length <= MAX_EMBED_TEXT_CHARS ? t : truncate === 'START' ? t.slice(-MAX_EMBED_TEXT_CHARS) : t.slice(0, MAX_EMBED_TEXT_CHARS),
  );
  const vectors = await embed(kept, dimensions);
  const id = randomUUID();
  if (embedding_types === undefined) return { id, texts: strings, embeddings: vectors, response_type: 'embeddings_floats' };
  const types = [...new Set(embedding_types as string[])];
  return {
    id,
    texts: strings,
    embeddings: Object.fromEntries(types.map((type) => [type, type === 'float' ? vectors : vectors.map((v) => quantised(v, type))])),
    response_type: 'embeddings_by_type',
  };
};

// ---- server ----------------------------------------------------------------------------------

interface RegionState {
  faults: RegionFaults;
  /** calls since the faults were set, and those of them not throttled */
  calls: number;
  unthrottled: number;
}

const readBody = async (req: http.IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const parseJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid('Malformed input request: the request body is not valid JSON.');
  }
};

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': randomUUID(),
    ...headers,
  });
  res.end(payload);
};

const sendError = (res: http.ServerResponse, error: StandinError): void =>
  send(res, error.status, { message: error.message }, { 'x-amzn-errortype': error.type });

const eventStream = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** One event of an AWS event stream, as Bedrock frames each part of a ConverseStream answer. */
const streamEvent = (type: string, body: unknown): Uint8Array =>
  eventStream.encode({
    headers: {
      ':event-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });

/** Parts of an answer as a stream carries them: a few words each, as a model's tokens come. */
const STREAM_PART_CHARS = 200;

/** A paced answer's parts come at most this far apart, as a model's tokens do (never near the idle-stream bound). */
const PACED_PART_MS = 250;

/** The parts a stream carries `text` in: STREAM_PART_CHARS each, or more and smaller ones to pace it over `answerMs`. */
export const streamParts = (text: string, answerMs: number): string[] => {
  const count = Math.min(
    Math.max(1, text.length),
    Math.max(Math.ceil(text.length / STREAM_PART_CHARS), Math.ceil(answerMs / PACED_PART_MS)),
  );
  const size = Math.ceil(text.length / count) || 1;
  return Array.from({ length: Math.max(1, Math.ceil(text.length / size)) }, (_, n) => text.slice(n * size, n * size + size));
};

/**
 * A Converse answer as ConverseStream sends it: messageStart, the text in contentBlockDelta parts, contentBlockStop,
 * messageStop, then metadata with the usage. `stallMs` holds the stream after its first part; `answerMs` spreads the
 * parts after the first evenly over that long.
 */
const streamAnswer = async (
  res: http.ServerResponse,
  answer: ConverseOutput,
  { stallMs, answerMs }: { stallMs: number; answerMs: number },
  signal: AbortSignal,
): Promise<void> => {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': randomUUID() });
  const parts = streamParts(answer.output.message.content.map((block) => block.text).join(''), answerMs);
  const gapMs = parts.length > 1 ? answerMs / (parts.length - 1) : 0;
  res.write(streamEvent('messageStart', { role: 'assistant' }));
  for (const [n, part] of parts.entries()) {
    if (n > 0 && gapMs > 0) await sleep(gapMs, undefined, { signal });
    res.write(streamEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: part } }));
    if (n === 0 && stallMs > 0) await sleep(stallMs, undefined, { signal });
    if (res.destroyed) return; // the client gave up on it
  }
  res.write(streamEvent('contentBlockStop', { contentBlockIndex: 0 }));
  res.write(streamEvent('messageStop', { stopReason: answer.stopReason }));
  res.end(streamEvent('metadata', { usage: answer.usage, metrics: answer.metrics }));
};

export const startBedrockStandin = async (options: BedrockStandinOptions = {}): Promise<BedrockStandin> => {
  const regions = new Map<string, RegionState>();
  const counts = new Map<string, RegionStats>();
  const aborter = new AbortController();
  const embed = standinEmbedder(options.embedder ?? 'hashing');
  const now = options.now ?? Date.now;
  /** when each cached prefix expires, by region, model and the prefix's hash */
  const cacheExpiry = new Map<string, number>();
  const promptCache: PromptCache = (key) => {
    const at = now();
    const hit = (cacheExpiry.get(key) ?? at) > at;
    cacheExpiry.set(key, at + PROMPT_CACHE_TTL_MS);
    return hit ? 'read' : 'write';
  };

  const state = (region: string): RegionState => {
    let s = regions.get(region);
    if (!s) regions.set(region, (s = { faults: {}, calls: 0, unthrottled: 0 }));
    return s;
  };
  const setFaults = (region: string, faults: RegionFaults): void => {
    regions.set(region, { faults: parseRegionFaults(faults, `faults for ${region}`), calls: 0, unthrottled: 0 });
  };
  const clearFaults = (region?: string): void => (region === undefined ? regions.clear() : void regions.delete(region));
  const regionCounts = (region: string): RegionStats => {
    let c = counts.get(region);
    if (!c) counts.set(region, (c = { total: 0, ok: 0, throttled: 0, error: 0, unavailable: 0, rejected: 0, texts: 0 }));
    return c;
  };
  const count = (region: string, outcome: Outcome): void => {
    const c = regionCounts(region);
    c.total++;
    c[outcome]++;
  };

  const env = options.env ?? process.env;
  const initial = { ...parseFaultsEnv(env[FAULTS_ENV]), ...options.faults };
  for (const [region, faults] of Object.entries(initial)) if (faults) setFaults(region, faults);
  let pace = parsePace(options.pace ?? parseJsonEnv(env[PACE_ENV], PACE_ENV) ?? {}, options.pace ? 'pace' : PACE_ENV);

  /** The fault a call in `region` gets under the region's schedule, if any. */
  const injectedFault = (region: string): StandinError | undefined => {
    const s = state(region);
    const { outage, throttleRatio = 0, errorRatio = 0 } = s.faults;
    s.calls++;
    if (outage) return new StandinError(503, 'ServiceUnavailableException', `stand-in: simulated outage in ${region}`, 'unavailable');
    if (scheduledHit(s.calls, throttleRatio))
      return new StandinError(429, 'ThrottlingException', `stand-in: simulated throttling in ${region}`, 'throttled');
    s.unthrottled++;
    if (scheduledHit(s.unthrottled, errorRatio))
      return new StandinError(500, 'InternalServerException', `stand-in: simulated internal error in ${region}`, 'error');
    return undefined;
  };

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> => {
    const faultsRoute = path.match(/^\/_standin\/faults(?:\/([a-z0-9-]+))?$/);
    const region = faultsRoute?.[1];
    if (req.method === 'GET' && path === '/_standin/stats') return send(res, 200, stats());
    if (req.method === 'GET' && faultsRoute && region === undefined) return send(res, 200, faults());
    if (req.method === 'DELETE' && faultsRoute) {
      clearFaults(region);
      return send(res, 200, faults());
    }
    if (req.method === 'PUT' && region !== undefined) {
      const body = parseJson(await readBody(req));
      try {
        setFaults(region, parseRegionFaults(body, `faults for ${region}`));
      } catch (error) {
        throw invalid((error as Error).message);
      }
      return send(res, 200, { region, faults: state(region).faults });
    }
    throw notFound(`No stand-in control route ${req.method} ${path}.`);
  };

  const model = async (req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<Outcome> => {
    const raw = await readBody(req);
    const region = regionFromAuthorization(req.headers.authorization);
    if (region === undefined)
      throw new StandinError(
        403,
        'AccessDeniedException',
        'stand-in: the request has no SigV4 Authorization header with a bedrock credential scope.',
      );
    const latencyMs = state(region).faults.latencyMs ?? 0;
    if (latencyMs > 0) await sleep(latencyMs, undefined, { signal: aborter.signal });
    const fault = injectedFault(region);
    if (fault) throw fault;
    const route = req.method === 'POST' ? path.match(/^\/model\/([^/]+)\/(converse|converse-stream|invoke)$/) : null;
    if (!route) throw notFound(`The Bedrock stand-in has no operation ${req.method} ${path}.`);
    let modelId: string;
    try {
      modelId = decodeURIComponent(route[1] ?? '');
    } catch {
      throw invalid('The model identifier is not validly URL-encoded.');
    }
    checkProfileRegion(modelId, region);
    const body = parseJson(raw);
    const { firstTokenMs, answerMs } = paceOf(pace, baseModelId(modelId));
    const call = { region, latencyMs: latencyMs + firstTokenMs + answerMs, promptCache };
    const wait = (ms: number) => (ms > 0 ? sleep(ms, undefined, { signal: aborter.signal }) : undefined);
    if (route[2] === 'converse') {
      const answer = converse(modelId, body, call);
      await wait(firstTokenMs + answerMs);
      send(res, 200, answer);
    } else if (route[2] === 'converse-stream') {
      const answer = converse(modelId, body, call);
      await wait(firstTokenMs);
      await streamAnswer(res, answer, { stallMs: state(region).faults.stallMs ?? 0, answerMs }, aborter.signal);
    } else {
      const embedded = await invokeEmbedding(modelId, body, state(region).faults.refuseText, embed);
      await wait(firstTokenMs);
      send(res, 200, embedded);
      regionCounts(region).texts += embedded.texts.length;
    }
    return 'ok';
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const isControl = path.startsWith('/_standin/');
    const region = isControl ? undefined : (regionFromAuthorization(req.headers.authorization) ?? 'unknown');
    (isControl ? control(req, res, path).then(() => undefined) : model(req, res, path))
      .then((outcome) => {
        if (region !== undefined && outcome) count(region, outcome);
      })
      .catch((error: unknown) => {
        if (aborter.signal.aborted) return res.destroy();
        const e =
          error instanceof StandinError
            ? error
            : new StandinError(500, 'InternalServerException', `stand-in failure: ${String(error)}`, 'error');
        if (region !== undefined) count(region, e.outcome);
        if (!res.headersSent) sendError(res, e);
      });
  });

  const stats = (): Record<string, RegionStats> => Object.fromEntries([...counts].map(([region, c]) => [region, { ...c }]));
  const faults = (): Record<string, RegionFaults> =>
    Object.fromEntries([...regions].filter(([, s]) => Object.keys(s.faults).length > 0).map(([region, s]) => [region, { ...s.faults }]));

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    port,
    setFaults,
    clearFaults,
    faults,
    setPace: (next) => {
      pace = parsePace(next);
    },
    stats,
    stop: async () => {
      aborter.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};
