import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';

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
