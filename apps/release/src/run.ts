/**
 * Child processes for the rehearsal: one promise per command, with the
 * command's output attached to the error when it fails, so a failed step says
 * what the tool printed instead of "exit code 1".
 */
import { execFile } from 'node:child_process';

/** What a finished command printed. */
export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** A command that exited non-zero, with what it printed. */
export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
    options?: ErrorOptions,
  ) {
    super(`\`${command}\` failed (exit ${exitCode ?? 'signal'}):\n${`${stdout}\n${stderr}`.trim()}`, options);
    this.name = 'CommandFailed';
  }
}

/** Runs `command args` in `cwd` with `env`; resolves with its output, rejects with a {@link CommandFailed}. */
export function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  const line = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd: options.cwd, env: options.env, maxBuffer: 32 * 1024 * 1024, timeout: options.timeoutMs ?? 180_000 }, (error, stdout, stderr) => {
      if (error) {
        const code = typeof error.code === 'number' ? error.code : null;
        reject(new CommandFailed(line, code, stdout, stderr, { cause: error }));
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}
