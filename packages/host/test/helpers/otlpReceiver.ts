/**
 * A tiny OTLP/HTTP receiver (JSON encoding) on a free loopback port: what a
 * collector would receive from the command's OpenTelemetry SDK.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as OTLP/JSON carries it (the fields the tests read). */
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>;
}

/** A metric as OTLP/JSON carries it (the fields the tests read). */
export interface OtlpMetric {
  readonly name: string;
  readonly unit?: string;
  readonly histogram?: { dataPoints: ReadonlyArray<{ attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>; count: string | number }> };
}

interface TracesRequest {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpSpan['attributes'] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}
interface MetricsRequest {
  resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: OtlpMetric[] }> }>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  readonly spans: OtlpSpan[];
  readonly metrics: OtlpMetric[];
  /** Service names of the resources that sent spans. */
  readonly services: string[];
  /** Resolves once a span matching arrives (or has arrived). */
  span(match: (span: OtlpSpan) => boolean): Promise<OtlpSpan>;
  /** Resolves once a metric named `name` arrives (or has arrived). */
  metric(name: string): Promise<OtlpMetric>;
  close(): Promise<void>;
}

/** The attributes of an OTLP span or point as a plain object of string/number values. */
export function attributesOf(attributes: OtlpSpan['attributes']): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = [];
  const metrics: OtlpMetric[] = [];
  const services: string[] = [];
  const listeners = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as TracesRequest;
        for (const rs of parsed.resourceSpans ?? []) {
          const service = attributesOf(rs.resource?.attributes ?? [])['service.name'];
          if (typeof service === 'string') services.push(service);
          for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
        }
      } else if (req.url === '/v1/metrics') {
        const parsed = JSON.parse(body) as MetricsRequest;
        for (const rm of parsed.resourceMetrics ?? []) for (const sm of rm.scopeMetrics ?? []) metrics.push(...(sm.metrics ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const listener of [...listeners]) listener();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const waitFor = <T>(find: () => T | undefined) =>
    new Promise<T>((resolve) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metrics,
    services,
    span: (match) => waitFor(() => spans.find(match)),
    metric: (name) => waitFor(() => metrics.find((m) => m.name === name)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
