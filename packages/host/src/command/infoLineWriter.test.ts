/**
 * The access log's fast line is the line pino's `info` writes: the same JSON,
 * key for key and in the same order, for the command's logger and its children,
 * whatever the client put in the fields; inside a traced span it is pino's own.
 */
import { Writable } from 'node:stream';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { INFO_LINE, infoLineWriterOf, type Logger } from '../kernel/logger.js';
import { infoLineWriter } from './infoLineWriter.js';

/** A pino logger as the command makes it (lines as bytes to a destination), its fast writer set, and the lines written. */
function commandLike(options: Pick<LoggerOptions, 'mixin'> = {}): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger: Logger = pino({ level: 'info', name: 'reactor-mcp-server', ...options, hooks: { streamWrite: (line) => Buffer.from(line) as unknown as string } }, destination);
  Object.defineProperty(logger, INFO_LINE, { value: infoLineWriter(pino.symbols, destination, options.mixin) });
  return { logger, lines };
}

/** A line's JSON without its time (the two lines are written a moment apart). */
const withoutTime = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(typeof time).toBe('number');
  return rest;
};

const FIELDS = [
  { method: 'POST', target: '/mcp', status: 200, durationMs: 0.42, mcpMethod: 'tools/call', mcpName: 'tool_42', node: 'replica-a' },
  { method: 'GET', target: '/mcp/benchmarks+spaces', status: 0, durationMs: 12345.67, toolsets: 'benchmarks,spaces', trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: undefined },
  // What a client chooses (a path, Mcp-Name) may hold anything: quotes, backslashes, control characters, line separators, non-ASCII.
  { method: 'POST', target: '/mcp/"quoted"\\back\nline\u2028sep\u0007', status: 400, durationMs: 1, mcpName: 'naïve 名前 \ud83d\ude00' },
  { method: 'POST', target: '/mcp', status: 200, durationMs: Number.NaN, request: '{"jsonrpc":"2.0"}', response: 'event: message\ndata: {}\n\n' },
];

describe('the fast access line', () => {
  it.each(FIELDS)('is the line pino writes for %o, key for key', (fields) => {
    const { logger, lines } = commandLike();
    const http = logger.child({ component: 'http' });
    const write = infoLineWriterOf(http);
    expect(write, 'a child inherits the writer').toBeDefined();
    const msg = `${fields.method} ${fields.target} ${fields.status} ${fields.durationMs} ms`;
    http.info(fields, msg);
    write!.call(http, fields, msg);
    expect(lines).toHaveLength(2);
    const [slow, fast] = lines as [string, string];
    expect(fast.endsWith('}\n')).toBe(true);
    expect(withoutTime(fast)).toEqual(withoutTime(slow));
    expect(Object.keys(withoutTime(fast))).toEqual(Object.keys(withoutTime(slow)));
    expect(withoutTime(fast)).toMatchObject({ level: 30, name: 'reactor-mcp-server', component: 'http', pid: process.pid, msg });
  });

  it('writes a value seen before as it wrote it the first time, past the strings it keeps too (a client may send a new Mcp-Name on every request)', () => {
    const { logger, lines } = commandLike();
    const write = infoLineWriterOf(logger)!;
    const names = Array.from({ length: 300 }, (_, i) => `tool "${i}"\n`);
    for (const round of [0, 1]) for (const mcpName of names) write.call(logger, { method: 'POST', target: '/mcp', mcpName }, `m${round}`);
    expect(lines).toHaveLength(600);
    const parsed = lines.map((line) => JSON.parse(line) as { mcpName: string });
    expect(parsed.map((line) => line.mcpName)).toEqual([...names, ...names]);
  });

  it('keeps a lone surrogate (not text) as its escape, as pino does from Node 25 on (before, pino wrote it raw and the bytes carried U+FFFD)', () => {
    const { logger, lines } = commandLike();
    infoLineWriterOf(logger)!.call(logger, { mcpName: 'a\ud800b' }, 'm');
    logger.info({ mcpName: 'a\ud800b' }, 'm');
    expect(lines[0]).toContain('"mcpName":"a\\ud800b"');
    expect((JSON.parse(lines[0]!) as { mcpName: string }).mcpName).toBe('a\ud800b');
    const pinos = (JSON.parse(lines[1]!) as { mcpName: string }).mcpName;
    expect(pinos).toBe(Number(process.versions.node.split('.')[0]) >= 25 ? 'a\ud800b' : 'a\ufffdb');
  });

  it("goes pino's general way inside a traced span, so the line carries the span's ids", () => {
    let inSpan = false;
    const { logger, lines } = commandLike({ mixin: () => (inSpan ? { trace_id: 'aaaa', span_id: 'bbbb' } : {}) });
    const write = infoLineWriterOf(logger)!;
    write.call(logger, { method: 'POST', status: 200 }, 'outside');
    inSpan = true;
    write.call(logger, { method: 'POST', status: 200 }, 'inside');
    expect(lines.map(withoutTime)).toEqual([
      expect.not.objectContaining({ trace_id: expect.anything() }),
      expect.objectContaining({ trace_id: 'aaaa', span_id: 'bbbb', method: 'POST', msg: 'inside' }),
    ]);
  });

  it('is absent from a logger that has none (the access log then calls info)', () => {
    expect(infoLineWriterOf(pino({ level: 'silent' }))).toBeUndefined();
  });
});
