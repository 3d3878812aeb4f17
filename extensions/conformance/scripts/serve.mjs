#!/usr/bin/env node
// Serves the conformance extensions for the official MCP conformance suite:
// `conformance` (its trigger tools wired to this host), `conformance-dynamic`
// (what the trigger tools remove and restore) and `conformance-passthrough`
// (a pass-through ToolExtension on every conformance tool), over Streamable
// HTTP with createMcpApp, 2025 sessions with an in-memory event store (so
// streams are resumable and test_reconnection can close its stream mid-call)
// and the 2026-07-28 protocol with listen streams. Uses the built packages:
// `pnpm conformance:serve` builds them first.
//
//   node extensions/conformance/scripts/serve.mjs [port]    (default 0 = any free port)
// Prints `listening <url>` on stdout once ready (and nothing else there); GET /healthz answers too.
import http from 'node:http';
import process from 'node:process';
import { buildHost, createMcpApp, createStderrLogger } from '@reactor/host';
import { CONFORMANCE_DYNAMIC, conformanceDynamic, conformancePassthrough, createConformance } from '@reactor/ext-conformance';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`serve: the port must be an integer from 0 to 65535, got ${JSON.stringify(process.argv[2])}\n`);
  process.exit(2);
}

// The trigger tools toggle conformance-dynamic: host.disable/enable change what every selection serves.
let host;
const toggle = async () => {
  const enabled = host.report().extensions.find((e) => e.name === CONFORMANCE_DYNAMIC)?.state !== 'disabled';
  await (enabled ? host.disable(CONFORMANCE_DYNAMIC) : host.enable(CONFORMANCE_DYNAMIC));
};
host = await buildHost([createConformance({ triggers: { toolsChanged: toggle, promptsChanged: toggle } }), conformanceDynamic, conformancePassthrough], {
  name: 'reactor-conformance',
  toolsetsTool: true,
  logger: createStderrLogger(process.env.REACTOR_MCP_LOG ?? 'warn'),
  strict: true,
  // One process serves every round, so its random key would do; a fixed one keeps the warning out of the suite's output.
  requestStateKey: process.env.REACTOR_MCP_REQUEST_STATE_KEY ?? 'reactor-conformance-request-state-key-0123456789',
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
