/**
 * The tools every server in the benchmark serves: `count` tools with small zod
 * input schemas, created once at start-up, and a trivial handler whose answer
 * the driver checks. Every framework gets the very same schema objects.
 */
import { z } from 'zod';

/** The input schema of every catalogue tool (one object per tool, as a real server has). */
export function toolSchema() {
  return z.object({
    query: z.string().describe('What to look for.'),
    limit: z.number().int().min(1).max(100).optional().describe('At most this many results.'),
  });
}

/** One catalogue tool: its name, description and schema. */
export interface CatalogueTool {
  readonly name: string;
  readonly description: string;
  readonly schema: ReturnType<typeof toolSchema>;
}

/** The name of tool `i`. */
export const toolName = (i: number): string => `tool_${i}`;

/** `count` tools, schemas created once. */
export function catalogue(count: number): CatalogueTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: toolName(i),
    description: `Tool number ${i}: looks something up.`,
    schema: toolSchema(),
  }));
}

/** What every framework's handler answers, as text. */
export function answer(name: string, args: { query: string; limit?: number | undefined }): string {
  return `${name}: ${args.query} ${args.limit ?? 10}`;
}

/** The arguments the driver sends to a `tools/call`, and the text it expects back. */
export const CALL_ARGS = { query: 'x', limit: 5 } as const;
