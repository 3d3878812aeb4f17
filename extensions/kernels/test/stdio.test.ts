/**
 * Over stdio, stdout is the protocol. `@jupyterlab/services` calls
 * `console.debug` ("Starting WebSocket: …") whenever it connects to a kernel;
 * in Node that writes to stdout. A real child process serving kernels over
 * stdio runs code on a real kernel: every stdout line must be JSON-RPC, and
 * the library's line must show up on stderr instead, through the logger.
 * Runs the built packages (`pnpm test` builds first).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyLab, jupyterPython, type LabCopy } from './helpers/lab.js';

const CHILD = fileURLToPath(new URL('./helpers/stdio-child.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

let lab: LabCopy;
beforeAll(() => {
  jupyterPython(); // its child starts a Jupyter Server (REACTOR_JUPYTER=auto): fails here, saying what to install, without one
  if (!existsSync(DIST)) throw new Error(`not built: ${DIST} is missing; run \`pnpm build\` first (\`pnpm test\` builds before testing)`);
  lab = copyLab();
});
afterAll(() => lab?.remove());

type Message = { jsonrpc?: string; id?: number; result?: { content?: Array<{ type: string; text?: string }>; isError?: boolean }; error?: unknown };

describe('kernels over stdio', () => {
  it('keeps stdout pure JSON-RPC while the Jupyter client logs (to stderr)', async () => {
    const child = spawn(process.execPath, [CHILD, lab.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    let buffer = '';
    const waiting = new Map<number, (m: Message) => void>();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        try {
          const message = JSON.parse(line) as Message;
          if (typeof message.id === 'number') waiting.get(message.id)?.(message);
        } catch {
          // Not JSON: the assertion on `lines` below reports it.
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const request = (id: number, method: string, params: Record<string, unknown>) => {
      const answered = new Promise<Message>((resolve) => waiting.set(id, resolve));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    };

    await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const ran = await request(2, 'tools/call', { name: 'execute_code', arguments: { space: 'lab', path: 'basics.ipynb', code: 'print("over stdio")' } });
    expect(ran.result?.isError, JSON.stringify(ran)).toBeFalsy();
    expect(ran.result?.content?.map((c) => c.text).join('\n')).toContain('over stdio');
    child.stdin.end();
    expect(await exited).toBe(0);

    expect(buffer).toBe('');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // The library did log, and its line reached stderr through the extension's logger.
    expect(stderr).toContain('Starting WebSocket');
    expect(stderr).toContain('@jupyterlab/services');
  }, 90_000);
});
