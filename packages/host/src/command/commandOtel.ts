/**
 * The command turns the OpenTelemetry Node SDK on when the standard `OTEL_*`
 * environment variables ask for it (an OTLP endpoint, or a traces/metrics
 * exporter other than `none`). `@opentelemetry/sdk-node` is an optional peer
 * of the host, imported only then; the SDK reads the `OTEL_*` variables itself
 * (exporters, protocol, service name, resource, sampling), so the command adds
 * no configuration of its own.
 */
import { ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';

/** The package the `OTEL_*` variables need. */
export const OTEL_SDK_PACKAGE = '@opentelemetry/sdk-node';

/** The variables that, set, ask for telemetry to be exported. */
const ASKING = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER'] as const;

/**
 * Which `OTEL_*` variables ask for the SDK, or an empty list when none does
 * (or `OTEL_SDK_DISABLED=true`, the specification's off switch). An exporter
 * variable set to `none` asks for nothing.
 */
export function otelRequestedBy(env: NodeJS.ProcessEnv): string[] {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return [];
  return ASKING.filter((name) => {
    const value = env[name]?.trim();
    return value !== undefined && value !== '' && value.toLowerCase() !== 'none';
  });
}

/** A started SDK. */
export interface StartedOtelSdk {
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

interface NodeSdkModule {
  NodeSDK?: new (config?: Record<string, unknown>) => { start(): void; shutdown(): Promise<void> };
}

/**
 * Imports `@opentelemetry/sdk-node` and starts it (it registers the global
 * tracer and meter providers and the W3C propagator the host's `telemetry: {}`
 * then uses). `serviceName` applies unless `OTEL_SERVICE_NAME` says otherwise.
 */
export async function startOtelSdk(serviceName: string, env: NodeJS.ProcessEnv, askedBy: readonly string[], specifier: string = OTEL_SDK_PACKAGE): Promise<StartedOtelSdk> {
  let loaded: NodeSdkModule & { default?: NodeSdkModule };
  try {
    loaded = (await import(specifier)) as typeof loaded;
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: `environment variable ${askedBy.join(', ')}`,
      problem: `asks for OpenTelemetry export, which needs the package ${specifier}, and it could not be loaded (${errorMessage(error)})`,
      expected: `${specifier} 0.2xx installed beside @reactor/host (0.300 and later need Node 22)`,
      received: 'no such package',
      hint: `install it (pnpm add ${specifier}@^0.223), or unset ${askedBy.join(', ')} (or set OTEL_SDK_DISABLED=true)`,
    });
  }
  const NodeSDK = loaded.NodeSDK ?? loaded.default?.NodeSDK;
  if (typeof NodeSDK !== 'function') {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: specifier, problem: 'exports no NodeSDK class', expected: 'a compatible version of the package', received: 'a module without NodeSDK', hint: `install ${specifier}@^0.223` });
  }
  const sdk = new NodeSDK(env.OTEL_SERVICE_NAME ? {} : { serviceName });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
