/**
 * A fake Jupyter Server: the REST routes and the kernel WebSocket protocol
 * (JSON messages) this extension uses, answered from memory, so the unit
 * layer runs the real `@jupyterlab/services` client where Python is absent.
 * It checks the token on every request and records each URL and whether it
 * carried the token in a header, so tests can prove where the token travels.
 *
 * Its "kernel" understands a few code shapes: `print("x")` prints x;
 * `raise` raises; `sleep` runs until interrupted; `input(` fails as stdin is
 * off; `touch <path>` bumps a file's last_modified (another editor saving);
 * anything else returns the text `'fake'`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

interface FakeKernel { id: string; name: string; state: string; count: number; sockets: Set<WebSocket>; sleeping?: (interrupted: boolean) => void }
interface FakeSession { id: string; path: string; name: string; type: string; kernel: FakeKernel }
interface FakeFile { content: unknown; lastModified: string }

/** A running fake server. */
export interface FakeJupyter {
  readonly url: string;
  readonly token: string;
  /** Every request: its URL and whether `Authorization: token …` was on it. */
  readonly requests: Array<{ method: string; url: string; authorized: boolean; upgrade: boolean }>;
  readonly files: Map<string, FakeFile>;
  readonly kernels: Map<string, FakeKernel>;
  /** Removes a kernel as Jupyter's culler would (its session and sockets go too). */
  cull(kernelId: string): void;
  close(): Promise<void>;
}

let clock = Date.UTC(2026, 0, 1);
const stamp = () => new Date((clock += 1000)).toISOString();

/** Starts the fake server on a free loopback port. */
export async function startFakeJupyter(files: Record<string, unknown> = {}): Promise<FakeJupyter> {
  const token = `fake-${randomUUID()}`;
  const requests: FakeJupyter['requests'] = [];
  const fileMap = new Map<string, FakeFile>(Object.entries(files).map(([p, content]) => [p, { content: structuredClone(content), lastModified: stamp() }]));
  const kernels = new Map<string, FakeKernel>();
  const sessions = new Map<string, FakeSession>();

  const kernelModel = (k: FakeKernel) => ({ id: k.id, name: k.name, execution_state: k.state, last_activity: new Date(clock).toISOString(), connections: k.sockets.size });
  const sessionModel = (s: FakeSession) => ({ id: s.id, path: s.path, name: s.name, type: s.type, kernel: kernelModel(s.kernel) });
  const newKernel = (name: string): FakeKernel => {
    const k: FakeKernel = { id: randomUUID(), name, state: 'idle', count: 0, sockets: new Set() };
    kernels.set(k.id, k);
    return k;
  };
  const removeKernel = (id: string) => {
    const k = kernels.get(id);
    if (!k) return;
    kernels.delete(id);
    for (const [sid, s] of sessions) if (s.kernel.id === id) sessions.delete(sid);
    for (const socket of k.sockets) socket.close();
  };

  const json = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const bodyOf = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  };
  const authorized = (req: IncomingMessage) => req.headers.authorization === `token ${token}`;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const ok = authorized(req);
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '', authorized: ok, upgrade: false });
      if (!ok) return json(res, 403, { message: 'Forbidden' });
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== 'api') return json(res, 404, { message: 'Not found' });
      const [, area, id, action] = parts;
      if (area === 'kernelspecs') {
        return json(res, 200, { default: 'python3', kernelspecs: { python3: { name: 'python3', spec: { display_name: 'Fake Python', language: 'python', argv: [], env: {}, metadata: {}, interrupt_mode: 'signal' }, resources: {} }, ir: { name: 'ir', spec: { display_name: 'R', language: 'R', argv: [], env: {}, metadata: {}, interrupt_mode: 'signal' }, resources: {} } } });
      }
      if (area === 'sessions') {
        if (req.method === 'GET') return json(res, 200, [...sessions.values()].map(sessionModel));
        if (req.method === 'POST') {
          const body = (await bodyOf(req)) as { path: string; name: string; type: string; kernel?: { name?: string } };
          const s: FakeSession = { id: randomUUID(), path: body.path, name: body.name, type: body.type, kernel: newKernel(body.kernel?.name ?? 'python3') };
          sessions.set(s.id, s);
          return json(res, 201, sessionModel(s));
        }
        if (req.method === 'DELETE' && id) {
          const s = sessions.get(id);
          if (s) removeKernel(s.kernel.id);
          sessions.delete(id);
          return json(res, 204);
        }
      }
      if (area === 'kernels') {
        if (!id) return json(res, 200, [...kernels.values()].map(kernelModel));
        const k = kernels.get(id);
        if (!k) return json(res, 404, { message: `Kernel does not exist: ${id}` });
        if (req.method === 'GET') return json(res, 200, kernelModel(k));
        if (req.method === 'DELETE') {
          removeKernel(id);
          return json(res, 204);
        }
        if (action === 'interrupt') {
          k.sleeping?.(true);
          return json(res, 204);
        }
        if (action === 'restart') {
          k.sleeping?.(true);
          k.count = 0;
          return json(res, 200, kernelModel(k));
        }
      }
      if (area === 'contents') {
        const path = parts.slice(2).join('/');
        const file = fileMap.get(path);
        const model = (f: FakeFile, content: boolean) => ({ name: path.split('/').pop(), path, type: 'notebook', format: content ? 'json' : null, content: content ? structuredClone(f.content) : null, created: f.lastModified, last_modified: f.lastModified, writable: true, mimetype: null });
        if (req.method === 'GET') return file ? json(res, 200, model(file, url.searchParams.get('content') !== '0')) : json(res, 404, { message: `No such file or directory: ${path}` });
        if (req.method === 'PUT') {
          const body = (await bodyOf(req)) as { content: unknown };
          const saved = { content: body.content, lastModified: stamp() };
          fileMap.set(path, saved);
          return json(res, 200, model(saved, false));
        }
      }
      return json(res, 404, { message: `Not found: ${url.pathname}` });
    })().catch((error: unknown) => json(res, 500, { message: String(error) }));
  });

  const wss = new WebSocketServer({ noServer: true, handleProtocols: () => false });
  server.on('upgrade', (req, socket, head) => {
    const ok = authorized(req);
    requests.push({ method: 'GET', url: req.url ?? '', authorized: ok, upgrade: true });
    const id = /\/api\/kernels\/([^/]+)\/channels/.exec(req.url ?? '')?.[1];
    const kernel = id ? kernels.get(decodeURIComponent(id)) : undefined;
    if (!ok || !kernel) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveKernel(kernel, ws));
  });

  function serveKernel(kernel: FakeKernel, ws: WebSocket): void {
    kernel.sockets.add(ws);
    ws.on('close', () => kernel.sockets.delete(ws));
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString('utf8')) as { header: { msg_id: string; msg_type: string; session: string }; content: Record<string, unknown>; channel: string };
      const send = (channel: string, msgType: string, content: Record<string, unknown>) =>
        ws.send(JSON.stringify({ header: { msg_id: randomUUID(), msg_type: msgType, session: 'fake', username: 'fake', date: new Date().toISOString(), version: '5.3' }, parent_header: msg.header, metadata: {}, content, channel, buffers: [] }));
      const status = (state: string) => send('iopub', 'status', { execution_state: state });
      if (msg.header.msg_type === 'kernel_info_request') {
        status('busy');
        send('shell', 'kernel_info_reply', { status: 'ok', protocol_version: '5.3', implementation: 'fake', implementation_version: '1', language_info: { name: 'python', version: '3', mimetype: 'text/x-python', file_extension: '.py' }, banner: 'fake', help_links: [] });
        status('idle');
        return;
      }
      if (msg.header.msg_type !== 'execute_request') return;
      const code = String(msg.content.code);
      const count = ++kernel.count;
      status('busy');
      send('iopub', 'execute_input', { code, execution_count: count });
      const reply = (content: Record<string, unknown>) => {
        send('shell', 'execute_reply', { execution_count: count, ...content });
        status('idle');
      };
      const fail = (ename: string, evalue: string) => {
        const traceback = ['\u001b[0;31m---------------------------------------------------------------------------\u001b[0m', `\u001b[0;32mCell In[${count}], line 1\u001b[0m`, `${ename}: ${evalue}`];
        send('iopub', 'error', { ename, evalue, traceback });
        reply({ status: 'error', ename, evalue, traceback });
      };
      for (const match of code.matchAll(/print\("([^"]*)"\)/g)) send('iopub', 'stream', { name: 'stdout', text: `${match[1]}\n` });
      const touched = /touch (\S+)/.exec(code)?.[1];
      if (touched) {
        const file = fileMap.get(touched);
        if (file) file.lastModified = stamp();
      }
      if (/\braise\b/.test(code)) return fail('ValueError', 'boom');
      if (/\binput\(/.test(code)) return fail('StdinNotImplementedError', 'raw_input was called, but this frontend does not support input requests.');
      if (/\bsleep\b/.test(code)) {
        kernel.sleeping = (interrupted) => {
          kernel.sleeping = undefined;
          if (interrupted) fail('KeyboardInterrupt', '');
        };
        return;
      }
      if (!/print\(/.test(code)) send('iopub', 'execute_result', { data: { 'text/plain': "'fake'" }, metadata: {}, execution_count: count });
      reply({ status: 'ok', user_expressions: {} });
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    token,
    requests,
    files: fileMap,
    kernels,
    cull: removeKernel,
    close: async () => {
      for (const k of kernels.values()) for (const s of k.sockets) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
