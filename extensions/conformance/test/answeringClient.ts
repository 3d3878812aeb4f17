/**
 * Test helper: an in-memory client that declares sampling and elicitation,
 * which `connect()` from `@reactor/host/testing` does not (its client
 * declares no capabilities, so the SDK refuses server-to-client requests).
 * Test-only: lives outside src/, so it is never built or published.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { parseSelection, type McpHost } from '@reactor/host';

/** What the client answers the server's sampling and elicitation requests with, and what it was asked. */
export interface AnsweringClient {
  readonly client: Client;
  /** Every `sampling/createMessage` params the server sent. */
  readonly samplingRequests: unknown[];
  /** Every `elicitation/create` params the server sent. */
  readonly elicitationRequests: Array<{ message?: string; requestedSchema?: { properties?: Record<string, Record<string, unknown>> } }>;
  close(): Promise<void>;
}

/** Connects a client that answers sampling with `samplingText` and accepts elicitations with `elicitContent`. */
export async function connectAnsweringClient(
  host: McpHost,
  answers: { samplingText: string; elicitContent: Record<string, string | number | boolean | string[]> },
): Promise<AnsweringClient> {
  const selection = parseSelection('');
  const built = await host.build(selection);
  const server = await built.createServer({ selection });
  const client = new Client({ name: 'conformance-test-client', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  const samplingRequests: unknown[] = [];
  const elicitationRequests: AnsweringClient['elicitationRequests'] = [];
  client.setRequestHandler('sampling/createMessage', (request) => {
    samplingRequests.push(request.params);
    return { role: 'assistant', content: { type: 'text', text: answers.samplingText }, model: 'test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler('elicitation/create', (request) => {
    elicitationRequests.push(request.params);
    return { action: 'accept', content: answers.elicitContent };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    samplingRequests,
    elicitationRequests,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
