import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { checkPython, DEFAULT_KERNELS_LIMITS, findPython, probePython, resolveJupyterSource, resolveKernelspecs, resolveLimits, resolvePassEnv, resolveScopes } from './config.js';
import { jupyterServerEnv } from './jupyterServer.js';
import { createKernelsExtension } from './extension.js';

describe('resolveJupyterSource', () => {
  it('is off with nothing configured, saying how to enable it', () => {
    expect(resolveJupyterSource(undefined, {})).toEqual({ kind: 'off', reason: 'no Jupyter Server is configured', hint: expect.stringContaining('REACTOR_JUPYTER_URL and REACTOR_JUPYTER_TOKEN') });
  });

  it('reads REACTOR_JUPYTER=auto (with Debian\'s Python unless told otherwise) and the URL variables, the URL winning', () => {
    expect(resolveJupyterSource(undefined, { REACTOR_JUPYTER: 'auto' })).toEqual({ kind: 'auto', python: undefined });
    expect(resolveJupyterSource(undefined, { REACTOR_JUPYTER: 'AUTO', REACTOR_JUPYTER_PYTHON: '/opt/py' })).toEqual({ kind: 'auto', python: '/opt/py' });
    expect(resolveJupyterSource(undefined, { REACTOR_JUPYTER: 'auto', REACTOR_JUPYTER_URL: 'http://127.0.0.1:8888', REACTOR_JUPYTER_TOKEN: 't', REACTOR_JUPYTER_ROOT: '/srv' })).toEqual({
      kind: 'remote',
      url: 'http://127.0.0.1:8888/',
      token: 't',
      rootDir: '/srv',
    });
  });

  it('lets options win over the environment', () => {
    expect(resolveJupyterSource('off', { REACTOR_JUPYTER: 'auto' })).toMatchObject({ kind: 'off' });
    expect(resolveJupyterSource({ url: 'https://jupyter.example/', token: 'x' }, { REACTOR_JUPYTER: 'auto' })).toMatchObject({ kind: 'remote', url: 'https://jupyter.example/' });
  });

  it('refuses a URL carrying its token, a non-http URL and an unknown mode', () => {
    expect(() => resolveJupyterSource(undefined, { REACTOR_JUPYTER_URL: 'http://h:1/?token=abc' })).toThrow(/carries a token in its query/);
    expect(() => resolveJupyterSource(undefined, { REACTOR_JUPYTER_URL: 'ftp://h/' })).toThrow(/is not an http\(s\) URL/);
    expect(() => resolveJupyterSource(undefined, { REACTOR_JUPYTER: 'yes' })).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }));
  });
});

describe('resolveLimits', () => {
  it('fills defaults and checks values', () => {
    expect(resolveLimits()).toEqual(DEFAULT_KERNELS_LIMITS);
    expect(resolveLimits({ maxImages: 0 }).maxImages).toBe(0);
    expect(() => resolveLimits({ maxTextBytes: 10 })).toThrow(/limits.maxTextBytes" of extension "kernels": is invalid; expected an integer of at least 256/);
    expect(() => resolveLimits({ nope: 1 } as never)).toThrow(/unknown key "nope"/);
  });
});

describe('resolveKernelspecs', () => {
  it('defaults to python3 and reads a comma list', () => {
    expect(resolveKernelspecs(undefined, {})).toEqual(['python3']);
    expect(resolveKernelspecs(undefined, { REACTOR_JUPYTER_KERNELSPECS: 'python3, ir ,python3' })).toEqual(['python3', 'ir']);
    expect(resolveKernelspecs(['julia'], { REACTOR_JUPYTER_KERNELSPECS: 'ir' })).toEqual(['julia']);
  });
});

describe('resolveScopes', () => {
  it('requires the kernels scope unless the operator names others (or none), and refuses what is not a scope', () => {
    expect(resolveScopes(undefined)).toEqual(['kernels']);
    expect(resolveScopes(['notebooks:run', 'notebooks:run'])).toEqual(['notebooks:run']);
    expect(resolveScopes([])).toEqual([]);
    expect(() => resolveScopes(['two words'])).toThrow(/option "scopes" of extension "kernels": is invalid; expected an array of OAuth scope names/);
    expect(() => resolveScopes('kernels' as never)).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }));
  });

  it('puts them on the toolset the extension declares', () => {
    const scopesOf = (options: Parameters<typeof createKernelsExtension>[0]) => createKernelsExtension({ ...options, env: {} }).toolsets?.().map((t) => t.scopes);
    expect(scopesOf({})).toEqual([['kernels']]);
    expect(scopesOf({ scopes: ['notebooks:run'] })).toEqual([['notebooks:run']]);
    expect(scopesOf({ scopes: [] })).toEqual([undefined]);
  });
});

describe('the embedded server\'s environment', () => {
  const host = { PATH: '/usr/bin', HOME: '/home/mcp', LANG: 'C.UTF-8', PYTHONPATH: '/opt/lib', REACTOR_MCP_REQUEST_STATE_KEY: 'k', REACTOR_MCP_AUTH_CLIENT_SECRET: 's', REACTOR_JUPYTER_TOKEN: 't', JUPYTER_TOKEN: 'j', AWS_SECRET_ACCESS_KEY: 'a', BASH_FUNC_x: '() { :; }' };

  it('is minimal: what programs need, nothing of this server\'s own', () => {
    expect(jupyterServerEnv(host)).toEqual({ PATH: '/usr/bin', HOME: '/home/mcp', LANG: 'C.UTF-8' });
    expect(jupyterServerEnv(host, ['PYTHONPATH', 'BASH_FUNC_x'])).toEqual({ PATH: '/usr/bin', HOME: '/home/mcp', LANG: 'C.UTF-8', PYTHONPATH: '/opt/lib' });
  });

  it('passes more variables only by name, and never a credential', () => {
    expect(resolvePassEnv(undefined, { REACTOR_JUPYTER_PASS_ENV: 'PYTHONPATH, HTTPS_PROXY,PYTHONPATH' })).toEqual(['PYTHONPATH', 'HTTPS_PROXY']);
    expect(resolvePassEnv(['NO_PROXY'], { REACTOR_JUPYTER_PASS_ENV: 'PYTHONPATH' })).toEqual(['NO_PROXY']);
    for (const name of ['REACTOR_MCP_AUTH_CLIENT_SECRET', 'JUPYTER_TOKEN', 'REACTOR_JUPYTER_TOKEN']) {
      expect(() => resolvePassEnv([name], {})).toThrow(new RegExp(`names ${name}, a credential of this server`));
    }
    expect(() => resolvePassEnv(undefined, { REACTOR_JUPYTER_PASS_ENV: 'REACTOR_MCP_REQUEST_STATE_KEY' })).toThrow(/environment variable REACTOR_JUPYTER_PASS_ENV: names REACTOR_MCP_REQUEST_STATE_KEY/);
    expect(() => resolvePassEnv(['not a name'], {})).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }));
  });
});

describe('probePython', () => {
  it('says why a Python cannot run the embedded server', () => {
    expect(probePython('/nonexistent/python')).toEqual({ ok: false, reason: '/nonexistent/python cannot be run (ENOENT)' });
  });
});

describe('findPython: the embedded server\'s Python when none is configured', () => {
  /** A folder with python3 files (empty: the probe below decides which "have Jupyter"). */
  function folders() {
    const root = mkdtempSync(join(tmpdir(), 'reactor-find-python-'));
    const make = (...parts: string[]) => {
      const file = join(root, ...parts);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '');
      chmodSync(file, 0o755);
      return file;
    };
    return { root, make, remove: () => rmSync(root, { recursive: true, force: true }) };
  }
  const having = (...withJupyter: string[]) => (python: string) => (withJupyter.includes(python) ? { ok: true as const } : { ok: false as const, reason: `${python} cannot import jupyter_server and ipykernel (ModuleNotFoundError)` });

  it('takes the active virtual env first, then conda, then PATH, then /usr/bin/python3 — the first that has Jupyter', () => {
    const f = folders();
    try {
      const venv = f.make('venv', 'bin', 'python');
      const conda = f.make('conda', 'bin', 'python3');
      const onPath = f.make('path1', 'python3');
      const later = f.make('path2', 'python3');
      const env = { VIRTUAL_ENV: join(f.root, 'venv'), CONDA_PREFIX: join(f.root, 'conda'), PATH: [join(f.root, 'path1'), 'relative/bin', join(f.root, 'path2')].join(delimiter) };
      const fallback = [f.make('usr', 'python3')];
      expect(findPython(env, having(venv, conda, onPath, later, fallback[0]!), fallback)).toEqual({ ok: true, python: venv });
      expect(findPython(env, having(conda, onPath, later), fallback)).toEqual({ ok: true, python: conda });
      // PATH's first python3 lacks Jupyter (as a pyenv shim may): the next one that has it is taken.
      expect(findPython({ PATH: env.PATH }, having(later), fallback)).toEqual({ ok: true, python: later });
      expect(findPython({ PATH: env.PATH }, having(fallback[0]!), fallback)).toEqual({ ok: true, python: fallback[0] });
    } finally {
      f.remove();
    }
  });

  it('names every Python it tried and how to install Jupyter with pip (or apt) when none has it', () => {
    const f = folders();
    try {
      const onPath = f.make('bin', 'python3');
      const found = findPython({ PATH: join(f.root, 'bin') }, having(), []);
      expect(found).toEqual({ ok: false, reason: `no Python has jupyter_server and ipykernel: ${onPath} cannot import jupyter_server and ipykernel (ModuleNotFoundError)`, hint: expect.stringContaining('python3 -m pip install jupyter_server ipykernel') });
      expect(found.ok === false && found.hint).toContain('apt-get install python3-jupyter-server python3-ipykernel');
      expect(findPython({ PATH: '' }, having(), [])).toMatchObject({ ok: false, reason: expect.stringContaining('no Python was found') });
    } finally {
      f.remove();
    }
  });

  it('checks a configured Python itself, and its hint installs into that Python', () => {
    expect(checkPython('/opt/py/bin/python', having())).toEqual({ ok: false, reason: expect.stringContaining('/opt/py/bin/python cannot import'), hint: expect.stringContaining('/opt/py/bin/python -m pip install jupyter_server ipykernel') });
  });

  it('finds a Python that really runs Jupyter on this machine (CI runs the real-Jupyter tests with it)', () => {
    const found = findPython(process.env);
    expect(found, found.ok ? '' : `${found.reason}; ${found.hint}`).toMatchObject({ ok: true });
    expect(found.ok && probePython(found.python)).toEqual({ ok: true });
  });
});
