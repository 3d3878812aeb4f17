/**
 * `--metrics-port` needs `prom-client`, an optional peer dependency of the
 * host: it is imported only when asked for, so a host that never serves
 * Prometheus metrics never loads (or needs) it.
 */
import type * as PromClientModule from 'prom-client';
import { ErrorCodes, errorMessage, ReactorError } from '../../kernel/errors.js';

/** The package `--metrics-port` needs. */
export const PROM_CLIENT_PACKAGE = 'prom-client';

/** The module `prom-client` exports. */
export type PromClient = typeof PromClientModule;

/** Imports `prom-client`; a clear `REACTOR_OPTION_INVALID` naming the package when it is not installed. */
export async function loadPromClient(specifier: string = PROM_CLIENT_PACKAGE): Promise<PromClient> {
  // A variable specifier: neither TypeScript nor a bundler makes the host depend on the package.
  let loaded: Partial<PromClient> & { default?: Partial<PromClient> };
  try {
    loaded = (await import(specifier)) as typeof loaded;
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: 'flag "--metrics-port" / REACTOR_MCP_METRICS_PORT',
      problem: `needs the package ${specifier}, which could not be loaded (${errorMessage(error)})`,
      expected: `${PROM_CLIENT_PACKAGE} 15 installed beside @reactor/host`,
      received: 'no such package',
      hint: `install it (pnpm add ${PROM_CLIENT_PACKAGE}@^15), or drop --metrics-port`,
    });
  }
  // prom-client is CommonJS: its named exports may sit on `default` only.
  const client = typeof loaded.Registry === 'function' ? loaded : loaded.default;
  if (typeof client?.Registry !== 'function' || typeof client.Histogram !== 'function') {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: PROM_CLIENT_PACKAGE, problem: 'exports no Registry or Histogram', expected: 'prom-client 15', received: 'a module without them', hint: `install ${PROM_CLIENT_PACKAGE}@^15` });
  }
  return client as PromClient;
}
