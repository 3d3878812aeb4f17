/**
 * The recording stand-in: an object with the SDK's registration surface of
 * both lines — v2 (`registerTool`, `registerResource`, `registerPrompt`) and
 * v1 (also `tool()`, `resource()`, `prompt()` with all their overloads) — that
 * a module's `(server) => void` runs against once. Registrations become a
 * {@link Recording}; what cannot be carried over faithfully is refused (own
 * `tools/call` handler, `connect()`) or noted (tasks, other request handlers).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ToolHandle } from '@reactor/host';
import { AdoptError, AdoptErrorCodes } from './errors.js';
import { currentCall } from './liveCall.js';
import { emptyRecording, type Recording, type RecordedPrompt, type RecordedResource, type RecordedState, type RecordedTool, type SdkCallback } from './recording.js';
import { CAPABLE_CLIENT, routedServerMethods } from './routedServer.js';
import { isRawShape, isSchema } from './schemas.js';

/** What `registerTool`/`tool()` return: the SDK's handle, acting per minted server during a call. */
export interface RecordedHandle {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
  update(changes: Record<string, unknown>): void;
}

/** Methods the host serves itself: a module replacing one would bypass adoption. */
const SERVED_BY_HOST = new Set(['tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get', 'completion/complete', 'initialize', 'ping', 'logging/setLevel']);

/** The stand-in and what it recorded. */
export interface Recorder {
  readonly server: object;
  readonly recording: Recording;
}

/** Makes a recording stand-in for the adopted server `extension`. */
export function createRecorder(extension: string, assumed: ClientCapabilities = CAPABLE_CLIENT): Recorder {
  const recording = emptyRecording();
  let assumedCapabilities = false;
  const routed = routedServerMethods(extension, () => {
    if (!assumedCapabilities) {
      assumedCapabilities = true;
      recording.notes.push({
        kind: 'assumed',
        subject: 'client capabilities',
        reason: 'the module asked for the client\'s capabilities while registering; it was told the client supports sampling, elicitation and roots, so tools it registers only for such clients are adopted and fail clearly for a client without them',
      });
    }
    return assumed;
  });
  const refuse = (what: string, hint: string): never => {
    throw new AdoptError(AdoptErrorCodes.REFUSED, { subject: `adopted server "${extension}"`, problem: `cannot be adopted faithfully: it ${what}`, hint });
  };
  const taken = (kind: string, key: string, taken: boolean) => {
    if (taken) throw new Error(`${kind} ${key} is already registered`);
  };

  const handleFor = (state: RecordedState, onUpdate: (changes: Record<string, unknown>) => void): RecordedHandle => ({
    get enabled() {
      const live = currentCall()?.live;
      if (live && state.servedName !== undefined) return live.tool(state.servedName)?.enabled ?? false;
      return state.enabled && !state.removed;
    },
    enable: () => act(state, (h) => h.enable(), () => (state.enabled = true)),
    disable: () => act(state, (h) => h.disable(), () => (state.enabled = false)),
    remove: () => act(state, (h) => h.remove(), () => (state.removed = true)),
    update: (changes) => {
      const live = currentCall()?.live;
      if (live && state.servedName !== undefined) {
        const handle = live.tool(state.servedName);
        if ('callback' in changes || 'paramsSchema' in changes || 'outputSchema' in changes || 'name' in changes) {
          throw new AdoptError(AdoptErrorCodes.REFUSED, {
            subject: `adopted tool "${state.servedName}" of "${extension}"`,
            problem: 'update() of its callback, schemas or name during a call is not supported on an adopted server',
            hint: 'only enabled, title, description, annotations and _meta can change per connection',
          });
        }
        if (changes.enabled === true) handle?.enable();
        if (changes.enabled === false) handle?.disable();
        handle?.update({
          ...(typeof changes.title === 'string' ? { title: changes.title } : {}),
          ...(typeof changes.description === 'string' ? { description: changes.description } : {}),
          ...(typeof changes.annotations === 'object' && changes.annotations !== null ? { annotations: changes.annotations } : {}),
          ...(typeof changes._meta === 'object' && changes._meta !== null ? { meta: changes._meta as Record<string, unknown> } : {}),
        });
        void routed.sendToolListChanged();
        return;
      }
      if (typeof changes.enabled === 'boolean') state.enabled = changes.enabled;
      if (changes.name === null) state.removed = true;
      onUpdate(changes);
    },
  });
  const act = (state: RecordedState, onLive: (h: ToolHandle) => void, atRecord: () => void) => {
    const live = currentCall()?.live;
    if (live && state.servedName !== undefined) {
      const handle = live.tool(state.servedName);
      if (handle) onLive(handle);
      void routed.sendToolListChanged();
      return;
    }
    atRecord();
  };

  const addTool = (tool: Omit<RecordedTool, 'state'>): RecordedHandle => {
    taken('Tool', tool.name, recording.tools.some((t) => t.name === tool.name && !t.state.removed));
    const draft: { -readonly [K in keyof RecordedTool]: RecordedTool[K] } = { ...tool, state: { enabled: true, removed: false } };
    recording.tools.push(draft);
    return handleFor(draft.state, (changes) => {
      if (typeof changes.title === 'string') draft.title = changes.title;
      if (typeof changes.description === 'string') draft.description = changes.description;
      if (changes.paramsSchema !== undefined) draft.inputSchema = changes.paramsSchema;
      if (changes.outputSchema !== undefined) draft.outputSchema = changes.outputSchema;
      if (typeof changes.callback === 'function') draft.callback = changes.callback as SdkCallback;
      if (typeof changes.annotations === 'object') draft.annotations = changes.annotations as Record<string, unknown>;
      if (typeof changes._meta === 'object') draft.meta = changes._meta as Record<string, unknown>;
    });
  };

  const addResource = (name: string, uriOrTemplate: unknown, config: Record<string, unknown>, callback: SdkCallback): RecordedHandle => {
    const described = {
      name,
      ...(typeof config.title === 'string' ? { title: config.title } : {}),
      ...(typeof config.description === 'string' ? { description: config.description } : {}),
      ...(typeof config.mimeType === 'string' ? { mimeType: config.mimeType } : {}),
    };
    let resource: RecordedResource;
    if (typeof uriOrTemplate === 'string') {
      taken('Resource', uriOrTemplate, recording.resources.some((r) => r.uri === uriOrTemplate));
      resource = { ...described, uri: uriOrTemplate, callback, state: { enabled: true, removed: false } };
    } else {
      taken('Resource template', name, recording.resources.some((r) => r.template && r.name === name));
      resource = { ...described, template: templateOf(uriOrTemplate), callback, state: { enabled: true, removed: false } };
    }
    recording.resources.push(resource);
    return handleFor(resource.state, () => {});
  };

  const addPrompt = (prompt: Omit<RecordedPrompt, 'state'>): RecordedHandle => {
    taken('Prompt', prompt.name, recording.prompts.some((p) => p.name === prompt.name));
    const recorded: RecordedPrompt = { ...prompt, state: { enabled: true, removed: false } };
    recording.prompts.push(recorded);
    return handleFor(recorded.state, () => {});
  };

  const low = {
    ...routed,
    setRequestHandler(schemaOrMethod: unknown) {
      const method = methodOf(schemaOrMethod);
      if (SERVED_BY_HOST.has(method)) {
        refuse(`installs its own "${method}" request handler, which would bypass what adoption serves`, 'register tools, resources and prompts through registerTool/registerResource/registerPrompt, or adopt the server as a process (adoptProcess)');
      }
      recording.notes.push({ kind: 'left-out', subject: `request handler "${method}"`, reason: 'the host serves its own protocol handlers; this one is not carried over' });
    },
    setNotificationHandler(schemaOrMethod: unknown) {
      recording.notes.push({ kind: 'left-out', subject: `notification handler "${methodOf(schemaOrMethod)}"`, reason: 'client notifications are not forwarded to adopted modules' });
    },
    registerCapabilities(capabilities: Record<string, unknown>) {
      if (capabilities.tasks !== undefined) recording.notes.push({ kind: 'left-out', subject: 'tasks capability', reason: 'tasks are not supported by adoption; task tools are left out' });
    },
    assertCanSetRequestHandler() {},
    connect: () => refuse('calls connect() itself', 'export a function (server) => void or a factory that returns the server without connecting it'),
    close: () => Promise.resolve(),
    set oninitialized(fn: unknown) {
      if (typeof fn === 'function') recording.notes.push({ kind: 'left-out', subject: 'oninitialized hook', reason: 'it runs per client on the module\'s own server; anything it registers is not adopted' });
    },
    onclose: undefined,
    onerror: undefined,
    transport: undefined,
  };

  const server = {
    server: low,
    registerTool(name: string, config: Record<string, unknown>, callback: SdkCallback) {
      return addTool({ name, ...toolConfig(config), callback });
    },
    tool(name: string, ...rest: unknown[]) {
      return addTool({ name, ...parseToolOverload(name, rest) });
    },
    registerResource(name: string, uriOrTemplate: unknown, config: Record<string, unknown>, callback: SdkCallback) {
      return addResource(name, uriOrTemplate, config ?? {}, callback);
    },
    resource(name: string, uriOrTemplate: unknown, ...rest: unknown[]) {
      const config = typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as Record<string, unknown>) : {};
      return addResource(name, uriOrTemplate, config, rest[0] as SdkCallback);
    },
    registerPrompt(name: string, config: Record<string, unknown>, callback: SdkCallback) {
      return addPrompt({
        name,
        ...(typeof config.title === 'string' ? { title: config.title } : {}),
        ...(typeof config.description === 'string' ? { description: config.description } : {}),
        ...(config.argsSchema !== undefined ? { argsSchema: config.argsSchema } : {}),
        callback,
      });
    },
    prompt(name: string, ...rest: unknown[]) {
      const description = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
      const argsSchema = rest.length > 1 ? rest.shift() : undefined;
      return addPrompt({ name, ...(description !== undefined ? { description } : {}), ...(argsSchema !== undefined ? { argsSchema } : {}), callback: rest[0] as SdkCallback });
    },
    connect: low.connect,
    close: low.close,
    isConnected: () => currentCall() !== undefined,
    sendLoggingMessage: routed.sendLoggingMessage,
    sendToolListChanged: routed.sendToolListChanged,
    sendResourceListChanged: routed.sendResourceListChanged,
    sendPromptListChanged: routed.sendPromptListChanged,
    get experimental() {
      return {
        tasks: {
          registerToolTask(name: string) {
            recording.notes.push({ kind: 'left-out', subject: `tool "${name}"`, reason: 'it is a task tool (experimental.tasks); tasks are not supported by adoption' });
            return { enabled: false, enable() {}, disable() {}, remove() {}, update() {} };
          },
        },
      };
    },
  };
  return { server, recording };
}

function toolConfig(config: Record<string, unknown>): Omit<RecordedTool, 'name' | 'callback' | 'state'> {
  return {
    ...(typeof config.title === 'string' ? { title: config.title } : {}),
    ...(typeof config.description === 'string' ? { description: config.description } : {}),
    ...(config.inputSchema !== undefined ? { inputSchema: config.inputSchema } : {}),
    ...(config.outputSchema !== undefined ? { outputSchema: config.outputSchema } : {}),
    ...(typeof config.annotations === 'object' && config.annotations !== null ? { annotations: config.annotations as Record<string, unknown> } : {}),
    ...(Array.isArray(config.icons) ? { icons: config.icons as RecordedTool['icons'] } : {}),
    ...(typeof config._meta === 'object' && config._meta !== null ? { meta: config._meta as Record<string, unknown> } : {}),
  };
}

/**
 * v1's `tool()` overloads: `(name, cb)`, `(name, description, cb)`,
 * `(name, paramsSchema, cb)`, `(name, description, paramsSchema, cb)`,
 * `(name, annotations, cb)`, `(name, paramsSchema, annotations, cb)` and the
 * same with a description first — told apart as the SDK tells them apart.
 */
export function parseToolOverload(name: string, args: unknown[]): Omit<RecordedTool, 'name' | 'state'> {
  const rest = [...args];
  const description = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
  let inputSchema: unknown;
  let annotations: Record<string, unknown> | undefined;
  if (rest.length > 1) {
    const first = rest[0];
    if (isRawShape(first) || isSchema(first)) {
      inputSchema = rest.shift();
      if (rest.length > 1 && typeof rest[0] === 'object' && rest[0] !== null && !isRawShape(rest[0])) annotations = rest.shift() as Record<string, unknown>;
    } else if (typeof first === 'object' && first !== null) {
      if (Object.values(first).some((v) => typeof v === 'object' && v !== null)) {
        throw new Error(`Tool ${name} expected a Zod schema or ToolAnnotations, but received an unrecognized object`);
      }
      annotations = rest.shift() as Record<string, unknown>;
    }
  }
  const callback = rest[0];
  if (typeof callback !== 'function') throw new Error(`Tool ${name} has no callback (expected a function as the last argument)`);
  return {
    ...(description !== undefined ? { description } : {}),
    ...(inputSchema !== undefined ? { inputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    callback: callback as SdkCallback,
  };
}

/** A `ResourceTemplate` of either SDK line, read structurally. */
export function templateOf(value: unknown): NonNullable<RecordedResource['template']> {
  const t = value as { uriTemplate?: { toString(): string }; listCallback?: SdkCallback; completeCallback?: (variable: string) => SdkCallback | undefined; _callbacks?: { complete?: Record<string, SdkCallback> } };
  if (typeof t !== 'object' || t === null || t.uriTemplate === undefined) throw new Error('expected a URI string or a ResourceTemplate');
  const uriTemplate = t.uriTemplate.toString();
  const variables = (t.uriTemplate as { variableNames?: string[] }).variableNames ?? [];
  const complete: Record<string, SdkCallback> = {};
  for (const variable of variables) {
    const fn = typeof t.completeCallback === 'function' ? t.completeCallback(variable) : t._callbacks?.complete?.[variable];
    if (typeof fn === 'function') complete[variable] = fn;
  }
  return { uriTemplate, ...(typeof t.listCallback === 'function' ? { list: t.listCallback } : {}), ...(Object.keys(complete).length > 0 ? { complete } : {}) };
}

/** The method a v2 method string or a v1 request schema (`z.object({ method: z.literal(…) })`) names. */
export function methodOf(schemaOrMethod: unknown): string {
  if (typeof schemaOrMethod === 'string') return schemaOrMethod;
  const method = (schemaOrMethod as { shape?: { method?: { value?: unknown; _def?: { value?: unknown }; _zod?: { def?: { values?: unknown[] } } } } } | undefined)?.shape?.method;
  const value = method?.value ?? method?._def?.value ?? method?._zod?.def?.values?.[0];
  return typeof value === 'string' ? value : '(unknown method)';
}
