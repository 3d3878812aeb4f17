/**
 * The floor: a bare `node:http` server doing what a correct 2026-07-28
 * `tools/call` answer needs of the protocol and nothing a host adds — the
 * body parsed, checked as a JSON-RPC request by the SDK's own guard, the tool
 * found, its arguments parsed by its zod schema, its handler called, the
 * result encoded with `JSON.stringify`. The result has the shape of Reactor's
 * own answer (captured at start, as the ceiling does), so the bytes are the
 * ceiling's. Between the ceiling (which replays bytes) and Reactor, it shows
 * what the validation and the encoding cost by themselves: no auth, no
 * selection, no SDK protocol layer, no time limit, no envelope.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { answer, catalogue } from '../catalogue.js';
import { captureAnswers } from './ceiling.js';

/** The floor's request handler for `count` catalogue tools (tools/call only). */
export async function floorHandler(count: number): Promise<RequestListener> {
  const captured = (await captureAnswers(count)).get('tools/call')!;
  const template = (JSON.parse(captured.body) as { result: Record<string, unknown> }).result;
  const tools = new Map(catalogue(count).map((tool) => [tool.name, tool]));
  const refuse = (res: ServerResponse, why: string) => res.writeHead(400, { 'content-type': 'text/plain' }).end(`the floor answers valid 2026-07-28 tools/call requests only: ${why}`);
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(res, 'the body is not JSON');
      }
      if (!isJSONRPCRequest(body) || body.method !== 'tools/call') return refuse(res, 'not a tools/call request');
      const params = body.params as { name?: unknown; arguments?: unknown };
      const tool = typeof params.name === 'string' ? tools.get(params.name) : undefined;
      if (!tool) return refuse(res, 'no such tool');
      const parsed = tool.schema.safeParse(params.arguments);
      if (!parsed.success) return refuse(res, 'the arguments do not match the schema');
      const result = { ...template, content: [{ type: 'text', text: answer(tool.name, parsed.data) }] };
      const bytes = Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id: body.id }));
      res.writeHead(captured.status, { 'content-type': captured.contentType, 'content-length': bytes.length });
      res.end(bytes);
    });
  };
}
