/**
 * Snapshot: the registrations of an already-built `McpServer` of either SDK
 * line, read once. This is the one file that reads SDK internals
 * (`_registeredTools`, `_registeredResources`, `_registeredResourceTemplates`,
 * `_registeredPrompts` and the low-level request-handler table); snapshot.test.ts
 * pins them for @modelcontextprotocol/sdk 1.x and @modelcontextprotocol/server 2.x,
 * so an SDK upgrade that moves them fails there first.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { AdoptError, AdoptErrorCodes } from './errors.js';
import { emptyRecording, type Recording, type SdkCallback } from './recording.js';
import { templateOf } from './recorder.js';
import { CAPABLE_CLIENT, routedServerMethods, type RoutedServerMethods } from './routedServer.js';

interface RegisteredToolLike {
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[] }>;
  execution?: { taskSupport?: string };
  _meta?: Record<string, unknown>;
  handler: unknown;
  enabled: boolean;
}
interface RegisteredResourceLike {
  name: string;
  title?: string;
  metadata?: { description?: string; mimeType?: string; title?: string };
  readCallback: SdkCallback;
  enabled: boolean;
}
interface RegisteredTemplateLike {
  resourceTemplate: unknown;
  title?: string;
  metadata?: { description?: string; mimeType?: string };
  readCallback: SdkCallback;
  enabled: boolean;
}
interface RegisteredPromptLike {
  title?: string;
  description?: string;
  argsSchema?: unknown;
  callback: SdkCallback;
  enabled: boolean;
}

/** The SDK internals a snapshot reads (the same names in v1 1.x and v2 2.x). */
interface McpServerInternals {
  _registeredTools: Record<string, RegisteredToolLike>;
  _registeredResources: Record<string, RegisteredResourceLike>;
  _registeredResourceTemplates: Record<string, RegisteredTemplateLike>;
  _registeredPrompts: Record<string, RegisteredPromptLike>;
  server: Record<string, unknown> & { _requestHandlers?: Map<string, unknown>; _instructions?: string; oninitialized?: unknown };
}

/** The methods `McpServer` installs itself; any other handler is the module's own. */
const SDK_HANDLERS = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);

/** True for an `McpServer` of either line (structurally: two copies of an SDK may be loaded). */
export function isMcpServer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { registerTool?: unknown }).registerTool === 'function' && '_registeredTools' in value && typeof (value as { server?: unknown }).server === 'object';
}

/**
 * Reads a built server's registrations into a recording, and routes the calls
 * its handlers make on it (`server.server.createMessage`, `sendLoggingMessage`…)
 * to the live server of the current call. A server already connected is refused:
 * its transport would answer beside the host.
 */
export function snapshotServer(value: unknown, extension: string, assumed: ClientCapabilities = CAPABLE_CLIENT): Recording {
  if (!isMcpServer(value)) {
    throw new AdoptError(AdoptErrorCodes.REFUSED, {
      subject: `adopted server "${extension}"`,
      problem: 'is not an McpServer of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x',
      expected: 'an McpServer (or { server: McpServer })',
      received: typeof value === 'object' && value !== null ? `an object with keys ${Object.keys(value).slice(0, 5).join(', ')}` : typeof value,
      hint: 'pass the server the module builds, or adopt the module by recording: adoptServer((server) => register(server))',
    });
  }
  const server = value as McpServerInternals;
  if (server.server.transport !== undefined) {
    throw new AdoptError(AdoptErrorCodes.REFUSED, {
      subject: `adopted server "${extension}"`,
      problem: 'cannot be adopted faithfully: it is already connected to a transport',
      hint: 'snapshot the server before calling connect(), or adopt the running server as a process (adoptProcess)',
    });
  }
  const recording = emptyRecording();
  const handlers = server.server._requestHandlers;
  if (handlers instanceof Map) {
    for (const method of handlers.keys()) {
      if (!SDK_HANDLERS.has(method)) recording.notes.push({ kind: 'left-out', subject: `request handler "${method}"`, reason: 'the module installed its own handler on its server; the host serves its own protocol handlers, so this one is not carried over' });
    }
  }
  if (typeof server.server.oninitialized === 'function') {
    recording.notes.push({ kind: 'left-out', subject: 'oninitialized hook', reason: 'it runs when a client connects to the module\'s own server; tools, resources or prompts it would register are not adopted' });
  }
  if (typeof server.server._instructions === 'string') recording.instructions = server.server._instructions;

  for (const [name, tool] of Object.entries(server._registeredTools)) {
    if (typeof tool.handler !== 'function' || tool.execution?.taskSupport === 'required') {
      recording.notes.push({ kind: 'left-out', subject: `tool "${name}"`, reason: 'it is a task tool (experimental.tasks); tasks are not supported by adoption' });
      continue;
    }
    recording.tools.push({
      name,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      ...(tool.icons !== undefined ? { icons: tool.icons } : {}),
      ...(tool._meta !== undefined ? { meta: tool._meta } : {}),
      callback: tool.handler as SdkCallback,
      state: { enabled: tool.enabled, removed: false },
    });
  }
  for (const [uri, resource] of Object.entries(server._registeredResources)) {
    const title = resource.title ?? resource.metadata?.title;
    recording.resources.push({
      name: resource.name,
      uri,
      ...(title !== undefined ? { title } : {}),
      ...(resource.metadata?.description !== undefined ? { description: resource.metadata.description } : {}),
      ...(resource.metadata?.mimeType !== undefined ? { mimeType: resource.metadata.mimeType } : {}),
      callback: resource.readCallback,
      state: { enabled: resource.enabled, removed: false },
    });
  }
  for (const [name, template] of Object.entries(server._registeredResourceTemplates)) {
    recording.resources.push({
      name,
      template: templateOf(template.resourceTemplate),
      ...(template.title !== undefined ? { title: template.title } : {}),
      ...(template.metadata?.description !== undefined ? { description: template.metadata.description } : {}),
      ...(template.metadata?.mimeType !== undefined ? { mimeType: template.metadata.mimeType } : {}),
      callback: template.readCallback,
      state: { enabled: template.enabled, removed: false },
    });
  }
  for (const [name, prompt] of Object.entries(server._registeredPrompts)) {
    recording.prompts.push({
      name,
      ...(prompt.title !== undefined ? { title: prompt.title } : {}),
      ...(prompt.description !== undefined ? { description: prompt.description } : {}),
      ...(prompt.argsSchema !== undefined ? { argsSchema: prompt.argsSchema } : {}),
      callback: prompt.callback,
      state: { enabled: prompt.enabled, removed: false },
    });
  }
  routeServer(server, extension, assumed);
  return recording;
}

/**
 * Replaces, on this one server object, the methods its handlers call to reach
 * a client with routed ones (the object is never connected, so nothing else
 * uses them).
 */
function routeServer(server: McpServerInternals, extension: string, assumed: ClientCapabilities): void {
  const routed: RoutedServerMethods = routedServerMethods(extension, () => assumed);
  Object.assign(server.server, routed);
  const high = server as unknown as Record<string, unknown>;
  high.sendLoggingMessage = routed.sendLoggingMessage;
  high.sendToolListChanged = routed.sendToolListChanged;
  high.sendResourceListChanged = routed.sendResourceListChanged;
  high.sendPromptListChanged = routed.sendPromptListChanged;
}
