import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../kernel/errors.js';
import { otelRequestedBy, startOtelSdk } from './commandOtel.js';

describe('otelRequestedBy', () => {
  it('names the OTEL_* variables that ask for export', () => {
    expect(otelRequestedBy({})).toEqual([]);
    expect(otelRequestedBy({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT']);
    expect(otelRequestedBy({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_METRICS_EXPORTER: 'none' })).toEqual(['OTEL_TRACES_EXPORTER']);
    // Only a service name, or exporters all "none", ask for nothing.
    expect(otelRequestedBy({ OTEL_SERVICE_NAME: 'mcp', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: ' ' })).toEqual([]);
  });

  it('asks for nothing with OTEL_SDK_DISABLED=true (the specification’s off switch)', () => {
    expect(otelRequestedBy({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual([]);
  });
});

describe('startOtelSdk', () => {
  it('names the package to install, and the variable that asked, when the SDK is missing', async () => {
    const failure = startOtelSdk('mcp', {}, ['OTEL_EXPORTER_OTLP_ENDPOINT'], '@opentelemetry/sdk-node-not-installed');
    await expect(failure).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID });
    await expect(failure).rejects.toThrow(/environment variable OTEL_EXPORTER_OTLP_ENDPOINT: asks for OpenTelemetry export, which needs the package @opentelemetry\/sdk-node-not-installed/);
    await expect(failure).rejects.toThrow(/OTEL_SDK_DISABLED=true/);
  });
});
