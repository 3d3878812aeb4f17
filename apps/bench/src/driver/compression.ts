/**
 * The compression phase: bytes on the wire of a 2026-07-28 `tools/list` at
 * 1000 tools, asked with `Accept-Encoding: br`, with `gzip`, and with none —
 * counted as the socket receives them (no decoding client in between), each
 * answer decoded and checked to be the same list.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer } from './processes.js';
import { messageOf, wireRequest } from './wire.js';

/** What one run measured. */
export interface CompressionResult {
  readonly tools: number;
  readonly plain: number;
  readonly br: number;
  readonly gzip: number;
}

function fetchRaw(origin: string, headers: Record<string, string>, body: string): Promise<{ headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/mcp`, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Measures the bytes of one `tools/list` answer per encoding, on the Reactor bench server. */
export async function measureCompression(options: { tools: number; progress: (line: string) => void }): Promise<CompressionResult> {
  const server = await startServer('reactor', 'reactor', ['--tools', String(options.tools)]);
  try {
    const sizes: Record<string, number> = {};
    let expected: string | undefined;
    for (const encoding of ['', 'br', 'gzip']) {
      const wire = wireRequest('2026', 'tools/list', options.tools, 1);
      const { headers, bytes } = await fetchRaw(server.origin, { ...wire.headers, ...(encoding ? { 'accept-encoding': encoding } : {}) }, wire.body);
      const sent = headers['content-encoding'] ?? '';
      if (sent !== encoding) throw new Error(`asked for ${encoding || 'no encoding'}, the server answered with ${sent || 'none'}`);
      const text = (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
      const message = messageOf(text, headers['content-type']) as { result?: { tools?: unknown[] } };
      if (message.result?.tools?.length !== options.tools) throw new Error(`the ${encoding || 'plain'} answer did not list ${options.tools} tools`);
      expected ??= text;
      if (text !== expected) throw new Error(`the ${encoding} answer decodes to other bytes than the plain one`);
      sizes[encoding || 'plain'] = bytes.length;
      options.progress(`  tools/list at ${options.tools} tools, ${encoding || 'plain'}: ${bytes.length} bytes`);
    }
    return { tools: options.tools, plain: sizes.plain!, br: sizes.br!, gzip: sizes.gzip! };
  } finally {
    await server.stop();
  }
}
