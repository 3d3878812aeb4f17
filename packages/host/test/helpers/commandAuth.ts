/**
 * The app with the auth the command sets up from its flags
 * (`parseCommandOptions` → `setUpCommandAuth` → `createMcpApp`), listening on
 * loopback, and a logger that keeps every line (to check what was, and was
 * never, logged).
 */
import { setUpCommandAuth, type CommandAuth } from '../../src/command/auth/commandAuth.js';
import { createMcpApp, parseCommandOptions, type Logger, type McpAppOptions, type McpHost } from '../../src/index.js';
import { listen, type Listening } from './http.js';

/** A logger that keeps every line as JSON text. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (first: unknown, msg?: string) => lines.push(JSON.stringify([first, msg]));
  const logger: Logger & { lines: string[] } = { lines, trace: log, debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

/** A served app and its auth. */
export interface ServedWithAuth {
  readonly listening: Listening;
  readonly auth: CommandAuth;
  close(): Promise<void>;
}

/** The app with the auth the command would set up from `argv` and `env` (and other app options, such as a catalog). */
export async function serveWithCommandAuth(host: McpHost, argv: string[], logger: Logger, env: NodeJS.ProcessEnv = {}, appOptions: Omit<McpAppOptions, 'auth' | 'logger'> = {}): Promise<ServedWithAuth> {
  const options = parseCommandOptions(argv, env);
  const auth = await setUpCommandAuth(options.auth, { logger, name: 'fixture', listenHost: options.host, toolsets: host.declaredToolsets(), signals: process });
  const listening = await listen(createMcpApp(host, { ...appOptions, ...(auth.app ? { auth: auth.app } : {}), logger }));
  return {
    auth,
    listening,
    close: async () => {
      await listening.close();
      auth.close();
    },
  };
}

/** `Authorization: Bearer <token>` */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
