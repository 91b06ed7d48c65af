import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { startBedrockStandin, type BedrockStandin, type BedrockStandinOptions } from '../../lib/twin/bedrock/standin';

/**
 * Bedrock Runtime clients for the AI gateway's `client` option: one per region, made on first use, against
 * the Bedrock stand-in at `endpoint()` (a getter: suites start the stand-in in beforeAll). One attempt each,
 * since the gateway does its own retries. `destroyAll` closes every client made.
 */
export const standinClients = (endpoint: () => string) => {
  const clients = new Map<string, BedrockRuntimeClient>();
  const client = (region: string) => {
    let c = clients.get(region);
    if (!c) {
      c = new BedrockRuntimeClient({
        region,
        endpoint: endpoint(),
        maxAttempts: 1,
        requestHandler: new NodeHttpHandler(),
        credentials: { accessKeyId: 'twin', secretAccessKey: 'twin' },
      });
      clients.set(region, c);
    }
    return c;
  };
  const destroyAll = () => {
    for (const c of clients.values()) c.destroy();
    clients.clear();
  };
  return { client, destroyAll };
};

/**
 * The Bedrock stand-in for a jest suite: started before its tests, stopped after them with every client made.
 * `standin()` is the running stand-in (faults, stats); `client` the per-region clients against it; `options` start it
 * (e.g. `{ embedder: 'meaning' }` for the sentence-embedding model).
 */
export const useStandin = (options: BedrockStandinOptions = {}) => {
  let running: BedrockStandin | undefined;
  const standin = (): BedrockStandin => {
    if (!running) throw new Error('the Bedrock stand-in starts in beforeAll');
    return running;
  };
  const { client, destroyAll } = standinClients(() => standin().url);
  beforeAll(async () => {
    running = await startBedrockStandin(options);
  });
  afterAll(async () => {
    destroyAll();
    await running?.stop();
  });
  return { standin, client };
};
