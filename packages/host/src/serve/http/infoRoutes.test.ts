import { describe, expect, it } from 'vitest';
import { buildHost, defineExtension, parseSelection, silentLogger } from '../../index.js';
import { healthzResponse, toolsetsBody, type HealthzBody } from './infoRoutes.js';

const ok = defineExtension({ manifest: { name: 'fine', version: '1.2.3' }, toolsets: () => [{ name: 'fine' }, { name: 'secret', default: false }] });

describe('healthzResponse', () => {
  it('keys each extension status by name', async () => {
    const host = await buildHost([ok], { name: 'svc', logger: silentLogger });
    const response = healthzResponse(host, false);
    expect(response.status).toBe(200);
    const body = (await response.json()) as HealthzBody;
    expect(body).toMatchObject({ ok: true, name: 'svc', problems: 0, extensions: { fine: { state: 'active', version: '1.2.3', toolsets: ['fine', 'secret'] } } });
    expect(body.closing).toBeUndefined();
  });

  it('is 503 and not ok while closing', async () => {
    const host = await buildHost([ok], { logger: silentLogger });
    const response = healthzResponse(host, true);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ok: false, closing: true });
  });
});

describe('toolsetsBody', () => {
  it('is describe() for the selection, plus the denied toolsets sorted', async () => {
    const host = await buildHost([ok], { logger: silentLogger });
    const body = await toolsetsBody(host, parseSelection('nosuch'), undefined, ['zeta', 'alpha']);
    expect(body.active).toEqual(['fine']);
    expect(body.unknown).toEqual(['nosuch']);
    expect(body.denied).toEqual(['alpha', 'zeta']);
    expect((await toolsetsBody(host, parseSelection(''), undefined, [])).denied).toBeUndefined();
  });
});
