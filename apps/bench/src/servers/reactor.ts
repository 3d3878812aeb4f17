/**
 * Server process: Reactor (`--tools N`, `--sessions` for the memory rows, `--middleware` for one no-op
 * middleware, `--telemetry` for OpenTelemetry off at /mcp and on at /otel in one process,
 * `--context-manager` to register the context manager a deployment's Node SDK registers, first).
 */
import { createServer } from 'node:http';
import { contextFollowsAwait, registerContextManager } from '../frameworks/contextManager.js';
import { reactorApp } from '../frameworks/reactor.js';
import { reactorTelemetryApps } from '../frameworks/reactorTelemetry.js';
import { announce, argFlag, argNumber } from './child.js';

const tools = argNumber('tools', 100);
if (argFlag('context-manager')) registerContextManager();
await announce(createServer(argFlag('telemetry') ? (await reactorTelemetryApps(tools)).listener : await reactorApp(tools, { sessions: argFlag('sessions'), middleware: argFlag('middleware') })), {
  contextFollowsAwait: await contextFollowsAwait(),
});
