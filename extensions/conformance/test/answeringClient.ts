/**
 * Test helper: `connect()` from `@reactor/host/testing` with a client that
 * declares sampling and elicitation and answers them, recording what it was asked.
 * Test-only: lives outside src/, so it is never built or published.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { McpHost } from '@reactor/host';
import { connect } from '@reactor/host/testing';

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
  const connection = await connect(host, { clientCapabilities: { sampling: {}, elicitation: { form: {} } } });
  const client = connection.client;
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
  return { client, samplingRequests, elicitationRequests, close: () => connection.close() };
}
