/**
 * The SDK internals the host relies on (`sdkInternals.ts`), each checked on a
 * real server: one minted as the host mints them, and one set up as the fast
 * path sets up a shared 2026-07-28 server (its revision added, its client
 * identity seeded, connected to a per-request transport). When an SDK upgrade
 * moves one, the failure names it, the SDK installed, the version the
 * accessors were checked against, and which part of the fast path falls back.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PerRequestHTTPServerTransport, PROTOCOL_VERSION_META_KEY, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../../contract/extension.js';
import { defineTool } from '../../contract/tool.js';
import { buildHost } from '../host.js';
import {
  abortControllersOf,
  buildsSdkContexts,
  classWireCodecOf,
  discoverAnswerOf,
  dispatchOf,
  isStockServer,
  outboundServerInfoOf,
  rememberedToolsCall,
  replaceAbortControllers,
  requestEntryOf,
  requestHandlersOf,
  SDK_BUILD_CONTEXT,
  SDK_CHECKED_VERSION,
  setClientIdentity,
  setSupportedProtocolVersions,
  supportedProtocolVersionsOf,
  wrapHandlerOf,
  type WireCodec,
} from './sdkInternals.js';

const SDK = '@modelcontextprotocol/server';
const REVISION = '2026-07-28';
const CLIENT_INFO = { name: 'internals-check', version: '1.0.0' };
const CLIENT_CAPABILITIES = { sampling: {} };

/** The version of the SDK installed here (its package.json, found above its entry point: the package does not export it). */
function installedVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(SDK));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === SDK && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level: look higher.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${SDK}: no package.json found above its entry point`);
    dir = parent;
  }
}

const INSTALLED = installedVersion();

/** What a failure says: the field, the versions, what falls back, and what to do. */
function moved(field: string, expected: string, fallsBack: string): string {
  return (
    `${field} is no longer ${expected} in ${SDK} ${INSTALLED} (the host's SDK internals were checked against ${SDK_CHECKED_VERSION}: ` +
    `packages/host/src/host/mint/sdkInternals.ts). ${fallsBack}. Find where this SDK keeps it, update its accessor in sdkInternals.ts, ` +
    `run src/serve/http/fast and test/fastPath*.test.ts, then set SDK_CHECKED_VERSION to ${INSTALLED}`
  );
}

/** The servers the checks read. */
interface Subjects {
  /** As the host mints a server: not connected. */
  readonly minted: McpServer;
  /** As the fast path serves a shared 2026-07-28 server, before it changes anything on it. */
  readonly bound: McpServer;
}

/** Each internal: what it must be, what uses it, and how that is checked. */
interface Check {
  readonly field: string;
  readonly expected: string;
  readonly fallsBack: string;
  holds(subjects: Subjects): boolean;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';
const isCodec = (codec: unknown): boolean => {
  const c = codec as Partial<WireCodec> | undefined;
  return [c?.checkInboundEnvelope, c?.encodeResult, c?.encodeErrorCode, c?.validateResult].every(isFunction);
};

const LEAN_TOOLS_CALL = 'The lean tools/call (serve/http/fast/leanToolsCall.ts) falls back to the SDK\'s own wrapper: the same answers, each call slower';
const LEAN_DISPATCH = 'The lean dispatch (serve/http/fast/leanDispatch.ts) falls back to the SDK\'s `_onrequest`: the same answers, each call slower';
const SHARED_SERVERS = 'No shared 2026-07-28 server binds (serve/http/fast/sharedExchange.ts `serveModernRevision`): the per-request path answers every such request, far slower';

const CHECKS: readonly Check[] = [
  {
    field: 'the minted server\'s classes',
    expected: 'the SDK\'s own McpServer and Server',
    fallsBack: 'Every change the fast path makes to a shared server is skipped (each checks `isStockServer`): the same answers, every call slower',
    holds: ({ minted }) => isStockServer(minted),
  },
  {
    field: 'Protocol#_requestHandlers',
    expected: 'a Map of method → the SDK\'s wrapper, holding the tools/call handler the mint registered',
    fallsBack: `The mint remembers no tools/call handler. ${LEAN_TOOLS_CALL}. ${LEAN_DISPATCH}`,
    holds: ({ minted }) => {
      const wrapper = requestHandlersOf(minted)?.get('tools/call');
      return isFunction(wrapper) && rememberedToolsCall(minted)?.wrapper === wrapper;
    },
  },
  {
    field: 'Protocol#_wrapHandler',
    expected: 'a method wrapping a handler into a function',
    fallsBack: LEAN_TOOLS_CALL,
    holds: ({ minted }) => isFunction(wrapHandlerOf(minted)?.('tools/call', () => Promise.resolve({ content: [] }))),
  },
  {
    field: 'Server#_outboundServerInfo',
    expected: 'a method answering the server\'s identity',
    fallsBack: `${LEAN_TOOLS_CALL}. ${LEAN_DISPATCH}`,
    holds: ({ minted }) => typeof (outboundServerInfoOf(minted)?.() as { name?: unknown } | undefined)?.name === 'string',
  },
  {
    field: 'Protocol#_onrequest',
    expected: 'a method (the request entry of the message dispatch)',
    fallsBack: 'The shared transports deliver through the transport\'s onmessage, which parses each message with the SDK\'s zod guards, and no request gets a deferred abort signal: the same answers, each call slower',
    holds: ({ minted }) => requestEntryOf(minted) !== undefined,
  },
  {
    field: 'Protocol#_requestHandlerAbortControllers',
    expected: 'a Map, empty on a new server',
    fallsBack: `No request gets a deferred abort signal (serve/http/fast/deferredAbort.ts), ${LEAN_DISPATCH}, and a client going away no longer aborts its handler on a shared server (sharedExchange.ts \`abortHandler\`)`,
    holds: ({ minted }) => abortControllersOf(minted)?.size === 0,
  },
  {
    field: 'Protocol#_requestHandlerAbortControllers (as the dispatch uses it)',
    expected: 'the table `_onrequest` registers each request\'s controller in',
    fallsBack: 'A request\'s controller never reaches the host\'s table: no deferred abort signal, no abort when a client goes away',
    holds: ({ bound }) => {
      const registered: Array<string | number> = [];
      const table = new (class extends Map<string | number, AbortController> {
        override set(id: string | number, controller: AbortController): this {
          registered.push(id);
          return super.set(id, controller);
        }
      })();
      const previous = abortControllersOf(bound)!;
      replaceAbortControllers(bound, table);
      try {
        const envelope = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: CLIENT_CAPABILITIES, [CLIENT_INFO_META_KEY]: CLIENT_INFO };
        const call = { jsonrpc: '2.0' as const, id: 'probe', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: envelope } };
        // The dispatch registers the controller while the message is delivered, before the handler runs.
        requestEntryOf(bound)!(call, { classification: { era: 'modern', revision: REVISION } });
        return registered.includes('probe');
      } finally {
        replaceAbortControllers(bound, previous);
      }
    },
  },
  {
    field: 'Protocol#_supportedProtocolVersions',
    expected: `an array of versions which, with ${REVISION} added, binds the server to it when connected to a per-request transport`,
    fallsBack: SHARED_SERVERS,
    holds: ({ minted, bound }) => supportedProtocolVersionsOf(minted) !== undefined && bound.server.getNegotiatedProtocolVersion() === REVISION,
  },
  {
    field: 'Server#_ondiscover',
    expected: 'a method answering server/discover with the supported versions',
    fallsBack: SHARED_SERVERS,
    holds: ({ bound }) => Array.isArray((discoverAnswerOf(bound)?.() as { supportedVersions?: unknown } | undefined)?.supportedVersions),
  },
  {
    field: 'Server#_clientCapabilities and Server#_clientVersion',
    expected: 'what getClientCapabilities() and getClientVersion() answer',
    fallsBack: 'A shared server no longer knows its client\'s identity (sharedExchange.ts `seedClientIdentity`): handlers on the fast path would see none — fix before release',
    holds: ({ bound }) => bound.server.getClientCapabilities() === CLIENT_CAPABILITIES && bound.server.getClientVersion() === CLIENT_INFO,
  },
  {
    field: 'Protocol#_negotiatedWireCodec',
    expected: `a method of the class answering the era's codec (checkInboundEnvelope, encodeResult, encodeErrorCode, validateResult)`,
    fallsBack: `The envelope check is parsed on every request again (serve/http/fast/envelopeCheck.ts). ${LEAN_DISPATCH}`,
    holds: ({ bound }) => isCodec(classWireCodecOf(bound)?.call(bound.server)),
  },
  {
    field: 'Server#buildContext',
    expected: 'a method of the SDK\'s Server class, the one a minted server uses',
    fallsBack: `Handler contexts are built with the SDK's spreads again (serve/http/fast/handlerContext.ts): the same contexts, more garbage. ${LEAN_DISPATCH}`,
    holds: ({ minted }) => SDK_BUILD_CONTEXT !== undefined && buildsSdkContexts(minted),
  },
  {
    field: 'the dispatch members (_negotiatedProtocolVersion, _transport, _resolveOutboundCodec, _assertOutboundRequestInEra, _notificationViaCodec, _requestWithSchemaViaCodec, _onerror)',
    expected: 'the negotiated version, the connected transport and methods',
    fallsBack: LEAN_DISPATCH,
    holds: ({ bound }) => {
      const sdk = dispatchOf(bound);
      return (
        sdk !== undefined &&
        sdk.negotiatedProtocolVersion() === REVISION &&
        sdk.transport() === bound.server.transport &&
        sdk.handlerFor('tools/call') === requestHandlersOf(bound)?.get('tools/call') &&
        isCodec(sdk.negotiatedCodec()) &&
        isCodec(sdk.outboundCodec('notifications/message'))
      );
    },
  },
];

describe(`the SDK internals the host relies on (${SDK} ${INSTALLED})`, () => {
  let subjects: Subjects;
  const servers: McpServer[] = [];

  beforeAll(async () => {
    const extension = defineExtension({
      manifest: { name: 'internals', version: '1.0.0' },
      toolsets: () => [{ name: 'internals' }],
      tools: () => [defineTool({ name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string() }), handler: (args) => args.text })],
    });
    const built = await (await buildHost([extension])).build();
    const minted = await built.createServer();
    const bound = await built.createServer();
    servers.push(minted, bound);
    // As sharedServers.ts sets up a 2026-07-28 server, with the SDK's own per-request transport.
    setClientIdentity(bound, CLIENT_INFO, CLIENT_CAPABILITIES);
    const versions = supportedProtocolVersionsOf(bound);
    if (versions) setSupportedProtocolVersions(bound, [...versions, REVISION]);
    await bound.connect(new PerRequestHTTPServerTransport({ classification: { era: 'modern', revision: REVISION } }));
    subjects = { minted, bound };
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it(`is the version the internals were checked against (${SDK_CHECKED_VERSION})`, () => {
    expect(
      INSTALLED,
      `${SDK} ${INSTALLED} is installed, but the SDK internals the host reads (packages/host/src/host/mint/sdkInternals.ts) were checked against ${SDK_CHECKED_VERSION}. ` +
        `Private fields may move in any release. Re-check each field named in sdkInternals.ts against the new SDK's dist (Protocol, Server, the wire codecs), ` +
        `run this file, src/serve/http/fast and test/fastPath*.test.ts (and pnpm bench), then set SDK_CHECKED_VERSION to '${INSTALLED}'`,
    ).toBe(SDK_CHECKED_VERSION);
  });

  it.each(CHECKS)('$field is $expected', (check) => {
    expect(check.holds(subjects), moved(check.field, check.expected, check.fallsBack)).toBe(true);
  });
});
