/**
 * One connection to an adopted server through the v1 SDK's client: connected
 * at start, listed, restarted with backoff when it drops (its tools fail
 * clearly meanwhile), closed on stop. Server-to-client traffic — sampling,
 * elicitation, roots, logging — is relayed to the client whose call is in
 * flight (the most recent one when several are: a shared child cannot say
 * which call a request belongs to; `perConnection` removes the ambiguity).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '@reactor/host';
import { AdoptError, AdoptErrorCodes, messageOf } from '../errors.js';
import { assertClientCan } from '../liveCall.js';

/** How a dropped connection is retried. */
export interface RestartOptions {
  /** First delay before reconnecting, in ms. Default 100. */
  readonly initialDelayMs?: number;
  /** Longest delay between attempts, in ms. Default 10 000. */
  readonly maxDelayMs?: number;
}

/** What an upstream needs. */
export interface UpstreamOptions {
  /** The adopted extension's name. */
  readonly extension: string;
  /** How it is reached, for messages: `command "node server.js"`, `URL http://…`. */
  readonly describe: string;
  /** Makes a fresh transport for each (re)connection. */
  readonly transport: () => Transport;
  /** `false`: never reconnect. */
  readonly restart: RestartOptions | false;
  readonly logger: Logger;
  /** Called after a reconnection or a list-changed notification, with the client. */
  readonly onRelist?: (client: Client) => Promise<void>;
}

/** The state of an upstream connection, for tests and health. */
export interface UpstreamStatus {
  /** `ready`, `down` (restarting), `connecting` or `stopped`. */
  readonly state: 'connecting' | 'ready' | 'down' | 'stopped';
  /** How many times it reconnected after dropping. */
  readonly restarts: number;
  /** Resolves when it is next ready (at once when it is). */
  whenReady(): Promise<void>;
}

const MAX_TIMER = 2_147_483_647;

/** One client connection to the adopted server. */
export class Upstream implements UpstreamStatus {
  state: UpstreamStatus['state'] = 'connecting';
  restarts = 0;
  private client: Client | undefined;
  private readonly inFlight: ServerContext[] = [];
  private readonly stderr: string[] = [];
  private delay: number;
  private timer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  /** Notifications being relayed to each call, in order; the call's result waits for them (a client drops what follows its response). */
  private readonly relays = new WeakMap<ServerContext, Promise<void>>();
  /** Progress tokens this proxy sent upstream, each with where its progress goes. */
  private readonly progress = new Map<string, (params: Record<string, unknown>) => void>();
  private progressIds = 0;

  constructor(private readonly options: UpstreamOptions) {
    this.delay = options.restart === false ? 0 : (options.restart.initialDelayMs ?? 100);
  }

  /** Connects once; rejects with a clear error when the server cannot be reached. */
  async start(): Promise<Client> {
    try {
      return await this.connect();
    } catch (error) {
      this.state = 'stopped';
      throw new AdoptError(AdoptErrorCodes.UPSTREAM_DOWN, {
        subject: `adopted server "${this.options.extension}" (${this.options.describe})`,
        problem: `could not be started or reached (${messageOf(error)})${this.stderrTail()}`,
        hint: 'check the command, its arguments and environment (or the URL and headers) by running it yourself',
        cause: error,
      });
    }
  }

  whenReady(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Runs one client request on behalf of a call; a drop during it becomes a clear error. */
  async request<T>(ctx: ServerContext, what: string, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.client;
    if (this.state !== 'ready' || !client) {
      throw new AdoptError(AdoptErrorCodes.UPSTREAM_DOWN, {
        subject: `adopted server "${this.options.extension}" (${this.options.describe})`,
        problem: `${what} failed: the server is ${this.state === 'stopped' ? 'stopped' : 'down and being restarted'}${this.stderrTail()}`,
        hint: this.state === 'stopped' ? 'the host is stopping' : 'retry in a moment; the rest of the host is unaffected',
      });
    }
    this.inFlight.push(ctx);
    try {
      const result = await run(client);
      await this.relays.get(ctx);
      return result;
    } catch (error) {
      if (this.client !== client || this.state !== 'ready') {
        throw new AdoptError(AdoptErrorCodes.UPSTREAM_DOWN, {
          subject: `adopted server "${this.options.extension}" (${this.options.describe})`,
          problem: `${what} failed: the server went away during the call (${messageOf(error)})${this.stderrTail()}`,
          hint: 'it is being restarted; retry the call — it was not completed',
          cause: error,
        });
      }
      throw error;
    } finally {
      const index = this.inFlight.lastIndexOf(ctx);
      if (index >= 0) this.inFlight.splice(index, 1);
    }
  }

  /** Relays a notification to a call, after those relayed before it. */
  relay(ctx: ServerContext, send: () => Promise<void>): void {
    const previous = this.relays.get(ctx) ?? Promise.resolve();
    this.relays.set(ctx, previous.then(send).catch((error: unknown) => this.options.logger.debug({ extension: this.options.extension }, `relaying to the client failed (${messageOf(error)})`)));
  }

  /**
   * A progress token of our own for one upstream call, relaying its progress
   * to the caller's token. Not the client's `onprogress`: the v1 client runs
   * notification handlers a microtask late but drops a request's progress
   * handler as soon as its response arrives, so progress sent just before the
   * response would be lost.
   */
  trackProgress(ctx: ServerContext, callerToken: string | number): { token: string; done(): void } {
    const token = `reactor-adopt-${++this.progressIds}`;
    this.progress.set(token, (params) => this.relay(ctx, () => ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...params, progressToken: callerToken } })));
    return { token, done: () => this.progress.delete(token) };
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.close();
  }

  /** The call to relay a server-to-client message to: the most recent one in flight. */
  private relayTarget(what: string): ServerContext {
    const ctx = this.inFlight.at(-1);
    if (ctx) return ctx;
    throw new AdoptError(AdoptErrorCodes.OUTSIDE_CALL, {
      subject: `adopted server "${this.options.extension}" (${this.options.describe})`,
      problem: `sent ${what} while no call of its tools was in flight, so there is no client to relay it to`,
      hint: 'adopted servers reach clients only during their calls',
    });
  }

  private async connect(restarting = false): Promise<Client> {
    this.state = 'connecting';
    const client = new Client(
      { name: `reactor-adopt/${this.options.extension}`, version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const ctx = this.relayTarget('a sampling request');
      assertClientCan('sampling/createMessage', ctx, this.options.extension);
      return (await ctx.mcpReq.requestSampling(request.params as never));
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const ctx = this.relayTarget('an elicitation request');
      assertClientCan('elicitation/create', ctx, this.options.extension);
      return (await ctx.mcpReq.elicitInput(request.params));
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      const ctx = this.relayTarget('a roots request');
      assertClientCan('roots/list', ctx, this.options.extension);
      return (await ctx.mcpReq.send({ method: 'roots/list' }));
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const ctx = this.inFlight.at(-1);
      if (ctx) this.relay(ctx, () => ctx.mcpReq.log(notification.params.level, notification.params.data, notification.params.logger));
      else this.options.logger.debug({ level: notification.params.level }, `adopted server "${this.options.extension}" logged outside a call: ${JSON.stringify(notification.params.data)}`);
    });
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, ...params } = notification.params;
      this.progress.get(String(progressToken))?.(params);
    });
    const relist = () => void this.relist(client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, relist);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, relist);
    client.setNotificationHandler(PromptListChangedNotificationSchema, relist);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      await this.inFlight.at(-1)?.mcpReq.notify({ method: 'notifications/resources/updated', params: notification.params });
    });
    const transport = this.options.transport();
    const stderr = (transport as { stderr?: NodeJS.ReadableStream | null }).stderr;
    stderr?.on('data', (chunk: Buffer) => this.keepStderr(chunk.toString('utf8')));
    client.onclose = () => this.dropped(client);
    await client.connect(transport, { timeout: 30_000 });
    this.client = client;
    this.state = 'ready';
    if (restarting) this.restarts++;
    if (this.options.restart !== false) this.delay = this.options.restart.initialDelayMs ?? 100;
    for (const resolve of this.waiters.splice(0)) resolve();
    return client;
  }

  private async relist(client: Client): Promise<void> {
    try {
      await this.options.onRelist?.(client);
    } catch (error) {
      this.options.logger.warn({ extension: this.options.extension }, `adopted server "${this.options.extension}": listing again failed (${messageOf(error)})`);
    }
  }

  private dropped(client: Client): void {
    // A connection that never became current (a failed attempt) is handled by whoever attempted it.
    if (this.client !== client) return;
    this.client = undefined;
    if (this.state === 'stopped') return;
    this.state = 'down';
    const restart = this.options.restart;
    this.options.logger.warn({ extension: this.options.extension }, `adopted server "${this.options.extension}" (${this.options.describe}) went away${this.stderrTail()}; ${restart === false ? 'not restarting (restart: false)' : `restarting in ${this.delay} ms`}`);
    if (restart === false) return;
    this.timer = setTimeout(() => void this.reconnect(), this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, restart.maxDelayMs ?? 10_000);
  }

  private async reconnect(): Promise<void> {
    if (this.state === 'stopped') return;
    try {
      const client = await this.connect(true);
      this.options.logger.info({ extension: this.options.extension, restarts: this.restarts }, `adopted server "${this.options.extension}" is back`);
      await this.relist(client);
    } catch (error) {
      // connect() failing leaves the state "connecting": schedule the next attempt.
      this.state = 'down';
      this.options.logger.warn({ extension: this.options.extension }, `adopted server "${this.options.extension}": restart failed (${messageOf(error)}); next attempt in ${this.delay} ms`);
      if (this.options.restart === false) return;
      this.timer = setTimeout(() => void this.reconnect(), this.delay);
      this.timer.unref();
      this.delay = Math.min(this.delay * 2, this.options.restart.maxDelayMs ?? 10_000);
    }
  }

  private keepStderr(text: string): void {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.stderr.push(line.slice(0, 500));
      this.options.logger.debug({ extension: this.options.extension }, `stderr: ${line}`);
    }
    this.stderr.splice(0, Math.max(0, this.stderr.length - 5));
  }

  private stderrTail(): string {
    return this.stderr.length === 0 ? '' : ` (its last stderr: ${this.stderr.slice(-3).join(' | ')})`;
  }
}

/** A request timeout long enough that the host's own time limit (which aborts the call) is what bounds it. */
export const NO_CLIENT_TIMEOUT = MAX_TIMER;
