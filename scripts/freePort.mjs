// A free TCP port on loopback, for the scripts that start services (Redis,
// replicas, HAProxy, a conformance server): the OS picks it, the probe lets it go.
import { createServer } from 'node:net';

/** Resolves a port nothing listens on now (on 127.0.0.1). */
export async function freePort() {
  const probe = createServer();
  probe.unref();
  await new Promise((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
