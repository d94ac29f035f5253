/**
 * `agent-hooks/otel` — OpenTelemetry tracing of an agent: run, step, tool and hook spans with outcomes and durations.
 * Needs the optional peer dependency `@opentelemetry/api`; the main entry point never loads it.
 *
 * @module
 */
export * from './otel-attributes.js';
export * from './otel-hooks.js';
