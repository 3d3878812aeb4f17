import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNELS_LIMITS, DEFAULT_PYTHON, probePython, resolveJupyterSource, resolveKernelspecs, resolveLimits } from './config.js';

describe('resolveJupyterSource', () => {
  it('is off with nothing configured, saying how to enable it', () => {
    expect(resolveJupyterSource(undefined, {})).toEqual({ kind: 'off', reason: 'no Jupyter Server is configured', hint: expect.stringContaining('REACTOR_JUPYTER_URL and REACTOR_JUPYTER_TOKEN') });
  });

  it('reads REACTOR_JUPYTER=auto (with Debian\'s Python unless told otherwise) and the URL variables, the URL winning', () => {
    expect(resolveJupyterSource(undefined, { REACTOR_JUPYTER: 'auto' })).toEqual({ kind: 'auto', python: DEFAULT_PYTHON });
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

describe('probePython', () => {
  it('says why a Python cannot run the embedded server', () => {
    expect(probePython('/nonexistent/python')).toEqual({ ok: false, reason: '/nonexistent/python cannot be run (ENOENT)' });
  });
});
