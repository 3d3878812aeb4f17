import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { captureLogger } from '@reactor/host/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calledFromJupyterlab, quietJupyterlabConsole } from './quietConsole.js';

describe('calledFromJupyterlab', () => {
  it('recognises @jupyterlab frames in pnpm and npm layouts, looking at the callers only', () => {
    const stack = (caller: string) => `Error\n    at console.debug (/app/quietConsole.js:1:1)\n    at ${caller}\n    at other (/app/x.js:1:1)`;
    expect(calledFromJupyterlab(stack('KernelConnection._createSocket (/app/node_modules/.pnpm/@jupyterlab+services@7.6.6/node_modules/@jupyterlab/services/lib/kernel/default.js:80:21)'))).toBe(true);
    expect(calledFromJupyterlab(stack('f (/app/node_modules/@jupyterlab/services/lib/serverconnection.js:90:25)'))).toBe(true);
    expect(calledFromJupyterlab(stack('mine (/app/src/mine.js:3:3)'))).toBe(false);
    expect(calledFromJupyterlab(undefined)).toBe(false);
  });
});

describe('quietJupyterlabConsole', () => {
  let release: (() => void) | undefined;
  afterEach(() => release?.());

  it('leaves other code\'s console calls alone and restores the console when released', () => {
    const original = console.debug;
    const spy = vi.fn();
    console.debug = spy;
    try {
      const logger = captureLogger();
      release = quietJupyterlabConsole(logger);
      expect(console.debug).not.toBe(spy);
      console.debug('from the application');
      expect(spy).toHaveBeenCalledWith('from the application');
      release();
      release = undefined;
      expect(console.debug).toBe(spy);
    } finally {
      console.debug = original;
    }
  });
});

describe('a console call from @jupyterlab code', () => {
  it('goes to the logger (stderr), not to the console (stdout)', async () => {
    // A module installed under node_modules/@jupyterlab/, calling console.debug as the client library does.
    const dir = mkdtempSync(join(tmpdir(), 'quiet-console-'));
    const file = join(dir, 'node_modules', '@jupyterlab', 'talker', 'index.mjs');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, "export function talk() { console.debug('Starting WebSocket: ws://127.0.0.1:1/api/kernels/k'); console.warn('Connection lost'); }\n");
    const original = { debug: console.debug, warn: console.warn };
    const debug = vi.fn();
    const warn = vi.fn();
    console.debug = debug;
    console.warn = warn;
    const logger = captureLogger();
    const release = quietJupyterlabConsole(logger);
    try {
      const { talk } = (await import(pathToFileURL(file).href)) as { talk: () => void };
      talk();
    } finally {
      release();
      Object.assign(console, original);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(debug).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    expect(logger.entries.map((e) => [e.level, e.msg])).toEqual([
      ['debug', 'Starting WebSocket: ws://127.0.0.1:1/api/kernels/k'],
      ['warn', 'Connection lost'],
    ]);
  });
});
