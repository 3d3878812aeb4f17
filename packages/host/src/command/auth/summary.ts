/** What the command's start-up summary says about authentication. */

/** Which authentication is on, for the start-up summary (never a token or a secret). */
export interface AuthSummary {
  /** `none` (loopback, nothing configured), `disabled` (`--no-auth`), or the verifiers in force. */
  readonly mode: 'none' | 'disabled' | ReadonlyArray<'jwt' | 'introspection' | 'static-tokens'>;
  readonly issuers?: readonly string[];
  readonly audiences?: readonly string[];
  readonly publicUrl?: string;
  readonly introspection?: string;
  /** The tokens file and the names of its tokens (never the tokens). */
  readonly staticTokens?: { readonly file: string; readonly names: readonly string[] };
  readonly requiredScopes?: readonly string[];
  readonly protectToolsets?: boolean;
  readonly protectHealthz?: boolean;
}

/** One phrase for the start-up message, e.g. `auth: jwt (https://idp.example) + 2 static token(s)`. */
export function describeAuth(summary: AuthSummary): string {
  if (summary.mode === 'none') return 'auth: none (loopback only)';
  if (summary.mode === 'disabled') return 'auth: OFF (--no-auth)';
  const parts = summary.mode.map((mode) => {
    if (mode === 'jwt') return `jwt (${(summary.issuers ?? []).join(', ')})`;
    if (mode === 'introspection') return `introspection (${summary.introspection ?? ''})`;
    return `${summary.staticTokens?.names.length ?? 0} static token(s)`;
  });
  return `auth: ${parts.join(' + ')}`;
}
