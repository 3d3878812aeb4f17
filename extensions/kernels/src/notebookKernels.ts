/**
 * The kernels of notebooks: one live session per notebook and owner (keyed by
 * its session path on the Jupyter Server, see owner.ts), found or started on
 * demand. Another owner never reaches it: its calls find or start a kernel of
 * their own. Without auth every caller is the one shared owner, whose session
 * is the notebook's own — so a kernel a person has open in JupyterLab is the
 * one an agent runs on. Every call names its notebook; there is no "current
 * notebook".
 *
 * Bounded: each MCP session may start a few kernels, the extension a few
 * more; kernels it started and nobody used for a while are shut down. A
 * kernel that vanished (culled, shut down elsewhere, died) is noticed on the
 * next use and replaced, saying that its state is gone.
 */
import type { Kernel, Session } from '@jupyterlab/services';
import type { Logger } from '@reactor/host';
import type { KernelsLimits } from './config.js';
import { kernelError, messageOf, notebookSubject } from './errors.js';
import { jupyterFailure, type JupyterClient } from './jupyterClient.js';
import type { NotebookRef } from './notebookFile.js';
import type { KernelOwner } from './owner.js';

/** A notebook with a live kernel. */
export interface LiveNotebook {
  readonly ref: NotebookRef;
  /** Whose kernel this is (see owner.ts). */
  readonly owner: KernelOwner;
  /** Its session's path on the Jupyter Server: the notebook's, tagged with the owner unless shared. */
  readonly sessionPath: string;
  readonly session: Session.ISessionConnection;
  readonly kernel: Kernel.IKernelConnection;
  /** True when this extension started the kernel (then it may shut it down when idle). */
  readonly startedByUs: boolean;
  /** The owner and MCP session that started it (counts against that session's bound). */
  readonly startedFor: string | undefined;
  lastActivity: number;
}

/** How `open` found the kernel. */
export type OpenedHow = 'already-open' | 'joined' | 'started';

/** What the pool needs. */
export interface NotebookKernelsDeps {
  readonly client: () => JupyterClient;
  readonly limits: KernelsLimits;
  /** The kernelspecs the operator allows. */
  readonly kernelspecs: readonly string[];
  readonly logger: Logger;
  /** True while a run is going on a kernel (an idle sweep leaves it alone). */
  readonly busy: (kernelId: string) => boolean;
}

export class NotebookKernels {
  private readonly live = new Map<string, LiveNotebook>();
  private readonly opening = new Map<string, Promise<{ live: LiveNotebook; how: OpenedHow; replaced: boolean }>>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: NotebookKernelsDeps) {}

  /** Starts the idle sweep. */
  start(): void {
    const every = Math.min(60_000, Math.max(1000, Math.floor(this.deps.limits.idleShutdownMs / 2)));
    this.sweeper = setInterval(() => void this.sweepIdle(Date.now()), every);
    this.sweeper.unref();
  }

  /** The owner's live notebook at this path, if this extension holds one (no request made). */
  held(owner: KernelOwner, jupyterPath: string): LiveNotebook | undefined {
    return this.live.get(owner.sessionPath(jupyterPath));
  }

  /** Every notebook this extension holds a kernel for, whoever owns it. */
  all(): LiveNotebook[] {
    return [...this.live.values()];
  }

  /** The notebooks this extension holds a kernel for, of one owner. */
  of(owner: KernelOwner): LiveNotebook[] {
    return this.all().filter((l) => l.owner.key === owner.key);
  }

  /**
   * Finds or starts the owner's kernel of the notebook: the one this
   * extension holds (if it still exists on the server), else the server's
   * session at the owner's session path (for the shared owner, someone's open
   * notebook), else a new session. Concurrent opens of one notebook by one
   * owner share one start.
   */
  async open(ref: NotebookRef, owner: KernelOwner, mcpSession: string | undefined, preferredSpec: string | undefined): Promise<{ live: LiveNotebook; how: OpenedHow; replaced: boolean }> {
    const sessionPath = owner.sessionPath(ref.jupyterPath);
    const pending = this.opening.get(sessionPath);
    if (pending) return await pending;
    const opening = this.openNow(ref, owner, sessionPath, mcpSession, preferredSpec).finally(() => this.opening.delete(sessionPath));
    this.opening.set(sessionPath, opening);
    return await opening;
  }

  private async openNow(ref: NotebookRef, owner: KernelOwner, sessionPath: string, mcpSession: string | undefined, preferredSpec: string | undefined): Promise<{ live: LiveNotebook; how: OpenedHow; replaced: boolean }> {
    const client = this.deps.client();
    const held = this.live.get(sessionPath);
    let replaced = false;
    if (held) {
      if (await this.stillThere(client, held)) {
        held.lastActivity = Date.now();
        return { live: held, how: 'already-open', replaced };
      }
      this.deps.logger.info({ notebook: ref.jupyterPath, kernel: held.kernel.id }, 'the kernel of a notebook is gone (culled, shut down elsewhere, or died); starting another');
      this.forget(held);
      replaced = true;
    }
    let models: Session.IModel[];
    try {
      models = await client.sessionsApi.listRunning();
    } catch (error) {
      throw jupyterFailure(client.endpoint, 'list its sessions', error);
    }
    const existing = models.find((m) => m.path === sessionPath && m.kernel !== null);
    if (existing?.kernel) {
      if (!this.deps.kernelspecs.includes(existing.kernel.name)) {
        throw kernelError(notebookSubject(ref.space, ref.path), `has a live kernel of kernelspec ${JSON.stringify(existing.kernel.name)}, which this server does not allow`, {
          expected: `one of ${this.deps.kernelspecs.join(', ')}`,
          hint: 'ask the operator to allow it (REACTOR_JUPYTER_KERNELSPECS), or shut that kernel down in Jupyter',
        });
      }
      const session = client.sessions.connectTo({ model: existing });
      return { live: await this.ready(this.keep(ref, owner, session, false, undefined)), how: 'joined', replaced };
    }
    // A session's bound is its owner's: two callers on one stateless connection kind never share (or see) one.
    const startedFor = `${owner.key}\u0000${mcpSession ?? ''}`;
    this.checkBounds(ref, startedFor);
    const spec = preferredSpec !== undefined && this.deps.kernelspecs.includes(preferredSpec) ? preferredSpec : this.deps.kernelspecs[0];
    let session: Session.ISessionConnection;
    try {
      session = await client.sessions.startNew({ path: sessionPath, type: 'notebook', name: ref.path.split('/').pop() ?? ref.path, kernel: { name: spec ?? 'python3' } });
    } catch (error) {
      throw jupyterFailure(client.endpoint, `start a ${spec ?? 'python3'} kernel for ${ref.space}/${ref.path}`, error);
    }
    this.deps.logger.info({ notebook: ref.jupyterPath, kernelspec: spec }, 'started a kernel');
    return { live: await this.ready(this.keep(ref, owner, session, true, startedFor)), how: 'started', replaced };
  }

  /**
   * Waits (bounded) until the kernel answers `kernel_info`: Jupyter answers a new
   * session before the kernel process is up, and a notebook reported open should run
   * its first cell at once. A kernel still booting at the bound is returned as is.
   */
  private async ready(live: LiveNotebook): Promise<LiveNotebook> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([live.kernel.info.then(() => undefined, () => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, this.deps.limits.startTimeoutMs)))]);
    clearTimeout(timer);
    return live;
  }

  private keep(ref: NotebookRef, owner: KernelOwner, session: Session.ISessionConnection, startedByUs: boolean, startedFor: string | undefined): LiveNotebook {
    const kernel = session.kernel;
    if (kernel === null) {
      session.dispose();
      throw kernelError(notebookSubject(ref.space, ref.path), 'got a session without a kernel from the Jupyter Server', { hint: 'try again; if it persists, check the server\'s log' });
    }
    const sessionPath = owner.sessionPath(ref.jupyterPath);
    const live: LiveNotebook = { ref, owner, sessionPath, session, kernel, startedByUs, startedFor, lastActivity: Date.now() };
    this.live.set(sessionPath, live);
    return live;
  }

  private checkBounds(ref: NotebookRef, startedFor: string): void {
    const ours = this.all().filter((l) => l.startedByUs);
    const mine = ours.filter((l) => l.startedFor === startedFor);
    if (mine.length >= this.deps.limits.maxKernelsPerSession) {
      throw kernelError(notebookSubject(ref.space, ref.path), `cannot get a kernel: this session already started ${mine.length} (the most one session may)`, {
        expected: `at most ${this.deps.limits.maxKernelsPerSession} kernels per session`,
        received: mine.map((l) => `${l.ref.space}/${l.ref.path}`).join(', '),
        hint: 'shut one down with shutdown_kernel first',
      });
    }
    if (ours.length >= this.deps.limits.maxKernels) {
      throw kernelError(notebookSubject(ref.space, ref.path), `cannot get a kernel: ${ours.length} kernels started by this server are running (the most it runs)`, {
        hint: 'shut one down with shutdown_kernel, or wait for idle ones to be shut down',
      });
    }
  }

  /** True when the held kernel still exists on the server and its connection works. */
  private async stillThere(client: JupyterClient, live: LiveNotebook): Promise<boolean> {
    if (live.session.isDisposed || live.kernel.isDisposed || live.kernel.status === 'dead') return false;
    try {
      return (await client.kernelsApi.getModel(live.kernel.id)) !== undefined;
    } catch (error) {
      throw jupyterFailure(client.endpoint, 'check a kernel', error);
    }
  }

  private forget(live: LiveNotebook): void {
    if (this.live.get(live.sessionPath) === live) this.live.delete(live.sessionPath);
    live.session.dispose();
  }

  /** Shuts a notebook's kernel down (and its session) and forgets it. */
  async shutdown(live: LiveNotebook): Promise<void> {
    const client = this.deps.client();
    try {
      await live.session.shutdown();
    } catch (error) {
      throw jupyterFailure(client.endpoint, `shut down the kernel of ${live.ref.space}/${live.ref.path}`, error);
    } finally {
      this.forget(live);
    }
  }

  /** Shuts down the kernels this extension started that nobody used for `idleShutdownMs`. */
  async sweepIdle(now: number): Promise<void> {
    for (const live of this.all()) {
      if (!live.startedByUs || now - live.lastActivity < this.deps.limits.idleShutdownMs || this.deps.busy(live.kernel.id)) continue;
      this.deps.logger.info({ notebook: live.ref.jupyterPath, kernel: live.kernel.id }, 'shutting down an idle kernel');
      await this.shutdown(live).catch((error: unknown) => this.deps.logger.warn({ notebook: live.ref.jupyterPath }, `could not shut down an idle kernel: ${messageOf(error)}`));
    }
  }

  /**
   * Lets go of every kernel: those this extension started are shut down
   * (bounded by the request time limit), the others only disconnected.
   */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = this.all();
    await Promise.all(
      all.map(async (live) => {
        if (live.startedByUs) {
          await live.session.shutdown().catch((error: unknown) => this.deps.logger.warn({ notebook: live.ref.jupyterPath }, `could not shut down a kernel on stop: ${messageOf(error)}`));
        }
        this.forget(live);
      }),
    );
  }
}
