/**
 * The real OpenTelemetry JS SDK and its OTLP exporters, as Claude Code (itself a Node program on
 * this SDK) runs them, pointed at a test server. A batch is collected once and handed to the
 * exporter's `export` as many times as a test wants, which is what the SDK's retry does.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { Attributes } from '@opentelemetry/api';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';

export type Protocol = 'http/protobuf' | 'http/json';

/** A reader that collects only when asked, with the temporality a test picks. */
class ManualReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

export interface Exporter<T> {
  export(batch: T): Promise<ExportResult>;
  shutdown(): Promise<void>;
}

function wrap<T>(exporter: { export(batch: T, done: (r: ExportResult) => void): void; shutdown(): Promise<void> }): Exporter<T> {
  return {
    export: (batch) => new Promise((resolve) => exporter.export(batch, resolve)),
    shutdown: () => exporter.shutdown(),
  };
}

export interface ExporterOptions {
  baseUrl: string;
  apiKey: string;
  protocol: Protocol;
  gzip?: boolean;
}

const config = (o: ExporterOptions, signal: 'metrics' | 'logs') => ({
  url: `${o.baseUrl}/api/otlp/v1/${signal}`,
  headers: { Authorization: `Bearer ${o.apiKey}` },
  compression: o.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
  timeoutMillis: 20_000,
});

export function metricExporter(o: ExporterOptions): Exporter<ResourceMetrics> {
  return wrap(o.protocol === 'http/protobuf' ? new ProtoMetricExporter(config(o, 'metrics')) : new JsonMetricExporter(config(o, 'metrics')));
}

export function logExporter(o: ExporterOptions): Exporter<ReadableLogRecord[]> {
  return wrap(o.protocol === 'http/protobuf' ? new ProtoLogExporter(config(o, 'logs')) : new JsonLogExporter(config(o, 'logs')));
}

/** Claude Code's resource (service.name claude-code), as its SDK sets it. */
export const claudeResource = resourceFromAttributes({ 'service.name': 'claude-code', 'service.version': '2.0.14', 'os.type': 'linux' });
export const codexResource = resourceFromAttributes({ 'service.name': 'codex_cli_rs', 'service.version': '0.44.0' });

/** A meter of one temporality whose collections a test takes by hand. */
export function meter(temporality: 'delta' | 'cumulative', resource = claudeResource) {
  const reader = new ManualReader({
    aggregationTemporalitySelector: () => (temporality === 'delta' ? AggregationTemporality.DELTA : AggregationTemporality.CUMULATIVE),
  });
  const provider = new MeterProvider({ resource, readers: [reader] });
  return {
    meter: provider.getMeter('com.anthropic.claude_code', '2.0.14'),
    /** One collection: the batch an export interval would send. */
    collect: async (): Promise<ResourceMetrics> => {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw errors[0];
      return resourceMetrics;
    },
    shutdown: () => provider.shutdown(),
  };
}

/** A logger whose records are kept, so a test exports the same batch again. */
export function eventLogger(resource = claudeResource) {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: memory })] });
  const logger = provider.getLogger('com.anthropic.claude_code.events', '2.0.14');
  return {
    /** An event as Claude Code and Codex emit one: its name as the body and in `event.name`. */
    emit(name: string, attributes: Attributes, at = new Date()) {
      const short = name.slice(name.indexOf('.') + 1);
      logger.emit({ body: name, attributes: { 'event.name': short, 'event.timestamp': at.toISOString(), ...attributes }, timestamp: at });
    },
    /** The records emitted since the last take (the processor hands them over once flushed). */
    async take(): Promise<ReadableLogRecord[]> {
      await provider.forceFlush();
      const records = [...memory.getFinishedLogRecords()];
      memory.reset();
      return records;
    },
    shutdown: () => provider.shutdown(),
  };
}

export const succeeded = (result: ExportResult): boolean => result.code === ExportResultCode.SUCCESS;
