/**
 * The command's default (json) log, on a file as a service manager gives it:
 * lines go out in large batches — each batch is one `fs.write` handed to
 * libuv's threads, a hand-over the event loop pays for whatever the batch's
 * size — and a line logged alone still reaches the file without an exit.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createReadStream, openSync, watch } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { symbols } from 'pino';
import type { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../kernel/logger.js';
import { jsonLogger } from './command.js';

/** An access line's fields, as `startAccessLog` gives them. */
const ACCESS = { method: 'POST', target: '/mcp', status: 200, durationMs: 0.42, mcpMethod: 'tools/call', mcpName: 'tool_42', node: 'replica-a' };

/** The logger's destination, a sonic-boom (pino keeps it under `symbols.streamSym`): it emits `write` with the bytes of each write. */
const destinationOf = (logger: Logger) => (logger as unknown as Record<symbol, EventEmitter & { end(): void }>)[symbols.streamSym]!;

const flushed = (logger: Logger) => new Promise<void>((resolve, reject) => logger.flush!((error?: Error) => (error ? reject(error) : resolve())));

describe("the command's json log on a file", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function logToFile(): Promise<{ logger: Logger; file: string }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'reactor-command-log-'));
    const file = path.join(dir, 'stderr.log');
    const logger = await jsonLogger('info', 'reactor-mcp-server', openSync(file, 'a'));
    cleanups.push(async () => {
      const destination = destinationOf(logger);
      // Ending the destination closes its file descriptor.
      await new Promise<void>((resolve) => (destination.once('close', () => resolve()), destination.end()));
      await rm(dir, { recursive: true, force: true });
    });
    return { logger, file };
  }

  it('writes a busy stretch of access lines in batches of about 200 lines each (not a dozen), every line whole', async () => {
    const { logger, file } = await logToFile();
    const writes: number[] = [];
    destinationOf(logger).on('write', (bytes: number) => void (bytes > 0 && writes.push(bytes)));
    const lines = 2000;
    // 16 lines a turn of the event loop: the requests in flight closing together.
    for (let i = 0; i < lines; i += 16) {
      for (let j = 0; j < 16; j++) logger.info({ ...ACCESS, durationMs: i + j }, `POST /mcp 200 ${i + j} ms`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // flush() answers once what is left is under a batch (sonic-boom's 'drain'); the periodic flush writes that.
    await flushed(logger);
    const read = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    await vi.waitFor(async () => expect(await read()).toHaveLength(lines), { timeout: 5_000, interval: 50 });
    const written = await read();
    expect(written.map((line) => line.durationMs)).toEqual(Array.from({ length: lines }, (_, i) => i));
    expect(written[0]).toMatchObject({ ...ACCESS, durationMs: 0, level: 30, name: 'reactor-mcp-server', msg: 'POST /mcp 200 0 ms' });
    // 4 KiB batches took a write every dozen lines; 64 KiB ones, one every ~200 (a line here is ~230 bytes).
    expect(lines / writes.length).toBeGreaterThanOrEqual(100);
    expect(Math.max(...writes)).toBeLessThanOrEqual(256 * 1024);
  });

  it('writes a line logged alone within its periodic flush, with no exit and no batch filled', async () => {
    const { logger, file } = await logToFile();
    const changed = new Promise<void>((resolve) => {
      const watcher = watch(file, () => (watcher.close(), resolve()));
    });
    logger.info(ACCESS, 'POST /mcp 200 0.42 ms');
    await changed;
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ ...ACCESS, msg: 'POST /mcp 200 0.42 ms' });
  });

  it('holds at most its buffer limit while the destination takes nothing (a stalled pipe), and counts every line it dropped in a warning once writes go on', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'reactor-command-log-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    // A pipe nobody reads yet: its 64 KiB fill, then the write under way waits.
    const fifo = path.join(dir, 'stderr.fifo');
    execFileSync('mkfifo', [fifo]);
    const idleReader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const logger = await jsonLogger('info', 'reactor-mcp-server', openSync(fifo, 'w'), {}, 256 * 1024);
    const lines = 10_000;
    for (let i = 0; i < lines; i += 100) {
      for (let j = 0; j < 100; j++) logger.info({ ...ACCESS, durationMs: i + j }, `POST /mcp 200 ${i + j} ms`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Now someone reads: what waited goes out, then the warning.
    const chunks: Buffer[] = [];
    const reader = createReadStream(fifo);
    reader.on('data', (chunk) => void chunks.push(chunk as Buffer));
    const ended = new Promise<void>((resolve) => reader.once('end', () => resolve()));
    // The reader opens on libuv's threads: the idle reader closes only once it is open. With no reader
    // at all for a moment, the blocked write fails (EPIPE) and the destination stops writing.
    await new Promise<void>((resolve) => reader.once('open', () => resolve()));
    closeSync(idleReader);
    // The count is told a second after the first drop, and again until the warning gets through.
    await vi.waitFor(() => expect(Buffer.concat(chunks).toString('utf8')).toContain('droppedLines'), { timeout: 10_000, interval: 50 });
    // Ending the destination writes out what it holds, then closes the pipe (fsync, which flush() ends with, does not apply to a pipe).
    const destination = destinationOf(logger);
    await new Promise<void>((resolve) => (destination.once('close', () => resolve()), destination.end()));
    await ended;
    const written = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const warnings = written.filter((line) => line.droppedLines !== undefined);
    const access = written.filter((line) => line.droppedLines === undefined);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ level: 40, msg: expect.stringContaining('log lines were dropped') as unknown });
    const dropped = warnings.reduce((sum, line) => sum + (line.droppedLines as number), 0);
    // Far fewer than all were held, and none is lost without being counted.
    expect(access.length).toBeLessThan(lines / 2);
    expect(access.length + dropped).toBe(lines);
  });
});
