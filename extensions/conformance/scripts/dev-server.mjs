#!/usr/bin/env node
// Serves the conformance extensions over Streamable HTTP with createMcpApp and
// an in-memory event store, so streams are resumable and test_reconnection
// can close its stream mid-call (reactor-mcp-server configures no event
// store). Uses the built packages: run `pnpm --filter @reactor/host --filter
// @reactor/ext-conformance build` first.
//
//   node extensions/conformance/scripts/dev-server.mjs [port]    (0 = any free port)
// Prints `listening <url>` on stdout once ready; GET /healthz answers too.
import http from 'node:http';
import process from 'node:process';
import { buildHost, createMcpApp, createStderrLogger } from '@reactor/host';
import { conformance, conformancePassthrough } from '@reactor/ext-conformance';

const port = Number(process.argv[2] ?? 0);
const host = await buildHost([conformance, conformancePassthrough], {
  name: 'reactor-conformance-dev',
  toolsetsTool: true,
  logger: createStderrLogger(process.env.REACTOR_MCP_LOG ?? 'warn'),
  strict: true,
});
const app = createMcpApp(host, { path: '/mcp', eventStore: memoryEventStore(), retryInterval: 500 });
const server = http.createServer(app);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}/mcp\n`);
});
const stop = async () => {
  server.close();
  await app.close();
  await host.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// The SDK's EventStore interface, in memory: event ids are `<streamId>_<counter>`.
function memoryEventStore() {
  const events = new Map();
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}_${String(++counter).padStart(10, '0')}`;
      events.set(eventId, { streamId, message });
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId;
      if (streamId === undefined) return '';
      let after = false;
      for (const [eventId, event] of events) {
        if (event.streamId !== streamId) continue;
        if (after) await send(eventId, event.message);
        if (eventId === lastEventId) after = true;
      }
      return streamId;
    },
  };
}
