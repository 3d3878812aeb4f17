/**
 * Record and snapshot: an SDK-written module made an extension with no rewrite.
 */
import { adoptedExtension, type AdoptedExtension } from './adopted.js';
import { AdoptError, AdoptErrorCodes } from './errors.js';
import type { AdoptOptions } from './options.js';
import type { Recording } from './recording.js';
import { createRecorder } from './recorder.js';
import { isMcpServer, snapshotServer } from './snapshot.js';

/**
 * What `adoptServer` takes: a function that registers on the server it is
 * given — `(server) => void` — or a factory that builds and returns its own
 * server (an `McpServer`, or `{ server, cleanup? }` as server-everything's
 * `createServer` does); or an already-built `McpServer`.
 */
export type AdoptableServer = ((server: never) => unknown) | object;

/**
 * Adopts an SDK-written server. A function runs once against a recording
 * stand-in with the registration surface of both SDK lines; if it returns a
 * server of its own instead, that server is snapshotted, as is an `McpServer`
 * passed directly. Resolves to an extension to pass to `buildHost`.
 */
export async function adoptServer(register: AdoptableServer, options: AdoptOptions): Promise<AdoptedExtension> {
  const name = typeof options?.name === 'string' ? options.name : '(unnamed)';
  if (typeof register !== 'function') {
    const recording = snapshotOf(register, name);
    return adoptedExtension(recording, options, 'snapshot');
  }
  const recorder = createRecorder(name);
  const { value: returned, readArgv } = await watchingArgv(() => (register as (server: unknown) => unknown)(recorder.server));
  let recording: Recording = recorder.recording;
  let how: 'recorded' | 'snapshot' = 'recorded';
  // Only a server (or { server }) counts as "returned its own": a registering arrow function may return a handle.
  const own = isMcpServer(returned) || (typeof returned === 'object' && returned !== null && isMcpServer((returned as { server?: unknown }).server));
  if (own) {
    const registered = recording.tools.length + recording.resources.length + recording.prompts.length;
    if (registered > 0) {
      throw new AdoptError(AdoptErrorCodes.REFUSED, {
        subject: `adopted server "${name}"`,
        problem: 'cannot be adopted faithfully: it registered on the server it was given and also returned a server of its own',
        hint: 'either register on the server passed in, or build and return your own server',
      });
    }
    recording = snapshotOf(returned as object, name);
    how = 'snapshot';
  }
  if (readArgv) {
    recording.notes.push({ kind: 'assumed', subject: 'process.argv', reason: 'the module read the command line while registering; it saw the host\'s arguments, not options meant for it — pass its settings another way (environment, a wrapper function)' });
  }
  return adoptedExtension(recording, options, how);
}

/** A built server, or `{ server, cleanup? }`, snapshotted. */
function snapshotOf(value: object, name: string): Recording {
  const wrapped = value as { server?: unknown; cleanup?: unknown };
  const server = isMcpServer(value) ? value : wrapped.server;
  const recording = snapshotServer(server, name);
  if (!isMcpServer(value) && typeof wrapped.cleanup === 'function') {
    const cleanup = wrapped.cleanup as () => unknown;
    recording.cleanup = () => cleanup();
  }
  return recording;
}

/**
 * Runs `fn` while watching whether anything reads the command line beyond the
 * script (a module reading `process.argv` at import or registration). The
 * array is restored afterwards whatever happens.
 */
export async function watchingArgv<T>(fn: () => T | Promise<T>): Promise<{ value: T; readArgv: boolean }> {
  const original = process.argv;
  let readArgv = false;
  process.argv = new Proxy(original, {
    get(target, key, receiver) {
      if (key === 'slice' || key === 'length' || key === Symbol.iterator || (typeof key === 'string' && /^\d+$/.test(key) && Number(key) >= 2)) readArgv = true;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    const value = await fn();
    return { value, readArgv };
  } finally {
    process.argv = original;
  }
}
