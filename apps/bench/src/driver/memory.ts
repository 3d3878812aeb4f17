/**
 * The memory phase: how much a server process grows per open 2025-protocol
 * session. Each server gets warm-up sessions first (opened, used, ended), then
 * batches of sessions that stay open; after each batch the process collects
 * garbage and is read (`/proc/<pid>/status` VmRSS, and V8's heap). Each open
 * session has done what a client does first: initialize, tools/list, tools/call.
 */
import { Target } from './load.js';
import { startServer, type MemoryReading, type ServerScript } from './processes.js';
import { median } from './stats.js';
import { checkAnswer, wireRequest } from './wire.js';

/** How the phase runs. */
export interface MemoryOptions {
  readonly tools: number;
  readonly batches: number;
  readonly sessionsPerBatch: number;
  readonly progress: (line: string) => void;
}

/** Per server: bytes per open session (median over batches). */
export interface MemoryResult {
  readonly name: string;
  readonly rssPerSession: number;
  readonly heapPerSession: number;
  readonly sessions: number;
  readonly baseline: MemoryReading;
}

async function useSession(target: Target, tools: number): Promise<string> {
  const sessionId = await target.openSession();
  for (const method of ['tools/list', 'tools/call'] as const) {
    const request = wireRequest('2025-session', method, tools, 1, sessionId);
    const answer = await target.send(request);
    checkAnswer(method, tools, 1, answer.status, answer.body, answer.contentType);
  }
  return sessionId;
}

async function measureOne(name: string, script: ServerScript, args: readonly string[], options: MemoryOptions): Promise<MemoryResult> {
  const server = await startServer(name, script, args);
  const target = new Target(name, server.origin, 8);
  try {
    // Warm-up: the first sessions build caches and compile code every later session shares.
    for (let i = 0; i < 20; i++) {
      const id = await useSession(target, options.tools);
      await target.pool.request({ path: '/mcp', method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } }).then((r) => r.body.dump());
    }
    const baseline = await server.memory();
    let previous = baseline;
    const rss: number[] = [];
    const heap: number[] = [];
    for (let batch = 0; batch < options.batches; batch++) {
      // Eight at a time, as concurrent clients would connect.
      for (let i = 0; i < options.sessionsPerBatch; i += 8) {
        await Promise.all(Array.from({ length: Math.min(8, options.sessionsPerBatch - i) }, () => useSession(target, options.tools)));
      }
      const now = await server.memory();
      rss.push((now.rss - previous.rss) / options.sessionsPerBatch);
      heap.push((now.heapUsed - previous.heapUsed) / options.sessionsPerBatch);
      previous = now;
    }
    options.progress(`  memory: ${name} done`);
    return { name, rssPerSession: median(rss), heapPerSession: median(heap), sessions: options.batches * options.sessionsPerBatch, baseline };
  } finally {
    await target.close();
    await server.stop();
  }
}

/** Measures Reactor's sessions and the SDK's server-per-session pattern on the same tools. */
export async function measureMemory(options: MemoryOptions): Promise<{ reactor: MemoryResult; sdk: MemoryResult }> {
  const args = ['--tools', String(options.tools)];
  const reactor = await measureOne('reactor sessions', 'reactor', [...args, '--sessions'], options);
  const sdk = await measureOne('SDK server per session', 'sdkPerSession', args, options);
  return { reactor, sdk };
}
