/**
 * What adoption reads from a server, whichever way in (recorded, snapshotted
 * or listed through a client): plain data plus the original callbacks, before
 * any renaming or grouping.
 */

/** A callback as the SDK stores it: called with (args, extra) or (extra). */
export type SdkCallback = (...args: never[]) => unknown;

/** The part of the SDK's `Registered*` handles an adopted module may call. */
export interface RecordedState {
  enabled: boolean;
  /** Removed before it was ever served (a module that registers, then removes). */
  removed: boolean;
  /** The name it is served under, once adoption has named it. */
  servedName?: string;
}

/** A tool as registered on the SDK server. */
export interface RecordedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** zod 4, zod 3, a raw shape of either, or a JSON Schema object. */
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: Record<string, unknown>;
  readonly icons?: ReadonlyArray<{ src: string; mimeType?: string; sizes?: string[] }>;
  readonly meta?: Record<string, unknown>;
  /** Called as `(args, extra)` when the tool has an input schema, else `(extra)`. */
  readonly callback: SdkCallback;
  readonly state: RecordedState;
}

/** A resource (fixed URI) or template as registered. */
export interface RecordedResource {
  readonly name: string;
  readonly uri?: string;
  readonly template?: {
    readonly uriTemplate: string;
    readonly list?: SdkCallback;
    readonly complete?: Readonly<Record<string, SdkCallback>>;
  };
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Called as `(uri, extra)` for a fixed URI, `(uri, variables, extra)` for a template. */
  readonly callback: SdkCallback;
  readonly state: RecordedState;
}

/** A prompt as registered. */
export interface RecordedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** A raw shape or object schema (zod 3 or 4); fields may be `completable`. */
  readonly argsSchema?: unknown;
  /** Completions by argument, when they do not come from `completable` fields. */
  readonly complete?: Readonly<Record<string, SdkCallback>>;
  /** Called as `(args, extra)` when the prompt has arguments, else `(extra)`. */
  readonly callback: SdkCallback;
  readonly state: RecordedState;
}

/** Something that was not carried over, or was carried over changed. */
export interface AdoptionNote {
  /** `left-out`: not served; `repaired`: served under a fixed name or description; `assumed`: served on an assumption. */
  readonly kind: 'left-out' | 'repaired' | 'assumed';
  /** What it is about: `tool "x"`, `request handler "resources/subscribe"`. */
  readonly subject: string;
  /** Why, in a sentence. */
  readonly reason: string;
}

/** Everything read from one server. */
export interface Recording {
  readonly tools: RecordedTool[];
  readonly resources: RecordedResource[];
  readonly prompts: RecordedPrompt[];
  readonly notes: AdoptionNote[];
  /** The server's own instructions, if it had any. */
  instructions?: string;
  /** Cleanup a factory returned (server-everything's `cleanup`), run in `onStop`. */
  cleanup?: () => unknown;
}

/** An empty recording. */
export function emptyRecording(): Recording {
  return { tools: [], resources: [], prompts: [], notes: [] };
}
