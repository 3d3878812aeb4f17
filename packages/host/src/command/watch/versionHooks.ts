/**
 * Module loader hooks for watch mode. ES modules cannot be unloaded, so a
 * reloaded extension is imported again under a new URL: its entry module gets
 * `?reactor-watch=<n>&reactor-root=<package dir>`, and this hook passes that
 * query on to every module the entry imports inside the same package (never
 * into node_modules), so the whole package graph is fresh while its
 * dependencies — the host, zod — stay the one shared copy.
 */
import { fileURLToPath } from 'node:url';

interface ResolveContext {
  readonly parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null }>;

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<{ url: string; format?: string | null }> {
  const result = await next(specifier, context);
  const parent = context.parentURL;
  if (parent === undefined || !parent.startsWith('file:') || !result.url.startsWith('file:')) return result;
  const parentQuery = new URL(parent).searchParams;
  const version = parentQuery.get('reactor-watch');
  const root = parentQuery.get('reactor-root');
  if (version === null || root === null) return result;
  const target = new URL(result.url);
  const file = fileURLToPath(target);
  if (!file.startsWith(root) || file.slice(root.length).includes('node_modules')) return result;
  target.searchParams.set('reactor-watch', version);
  target.searchParams.set('reactor-root', root);
  return { ...result, url: target.href };
}
