/**
 * `@jupyterlab/services` is written for browsers: it calls `console.debug`
 * ("Starting WebSocket: …", kernel status changes) and `console.log`. In Node
 * those write to stdout — which, when a host serves over stdio, is the
 * protocol, and one stray line corrupts it. The library takes no logger, so
 * while the extension runs, the console's `debug`, `log`, `info`, `warn` and
 * `error` are wrapped: a call made from inside `@jupyterlab/` code goes to the
 * extension's logger (stderr, structured; chatter at debug, warnings and
 * errors at their level); any other call goes to the
 * original method untouched, so the rest of the process is unaffected.
 * Installs are counted, so several extension instances share one wrap, and
 * the last uninstall restores the originals.
 */
/* eslint-disable no-console -- this module exists to wrap the console methods the Jupyter client calls */
import { format } from 'node:util';
import type { Logger } from '@reactor/host';

type Method = 'debug' | 'log' | 'info' | 'warn' | 'error';
const METHODS: readonly Method[] = ['debug', 'log', 'info', 'warn', 'error'];
// Where each method's lines go on the logger: chatter at debug, the library's warnings and errors as such.
const LEVEL: Record<Method, 'debug' | 'warn' | 'error'> = { debug: 'debug', log: 'debug', info: 'debug', warn: 'warn', error: 'error' };

let installs = 0;
let originals: Partial<Record<Method, (...args: unknown[]) => void>> = {};
const loggers: Logger[] = [];

/** True when the caller of a console method (found in the stack) is `@jupyterlab` code. */
export function calledFromJupyterlab(stack: string | undefined): boolean {
  if (stack === undefined) return false;
  // Skip the first lines (the Error itself and the wrapper), look at the caller's frames.
  return stack.split('\n').slice(2, 6).some((line) => /[\\/]@jupyterlab[\\/+]/.test(line));
}

/**
 * Routes `@jupyterlab`'s console output to `logger` until the returned
 * function is called.
 */
export function quietJupyterlabConsole(logger: Logger): () => void {
  loggers.push(logger);
  if (installs++ === 0) {
    originals = {};
    for (const method of METHODS) {
      const original = console[method] as (...args: unknown[]) => void;
      originals[method] = original;
      console[method] = (...args: unknown[]) => {
        if (calledFromJupyterlab(new Error().stack)) {
          loggers[loggers.length - 1]?.[LEVEL[method]]({ from: '@jupyterlab/services', method }, format(...args));
          return;
        }
        original.apply(console, args);
      };
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const at = loggers.lastIndexOf(logger);
    if (at >= 0) loggers.splice(at, 1);
    if (--installs === 0) {
      for (const method of METHODS) {
        const original = originals[method];
        if (original) console[method] = original;
      }
      originals = {};
    }
  };
}
