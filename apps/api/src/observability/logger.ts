import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request id the gateway makes itself: for a request without a usable X-Request-Id, or without a request at all. */
export const newRequestId = (): string => randomUUID();

/** A caller's X-Request-Id is kept when it is a plain token; otherwise the gateway makes one (Fastify's genReqId). */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && CLIENT_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/**
 * JSON lines on stdout: one per request (see RequestTracker), plus Nest's own messages and reported
 * errors. Written asynchronously: lines logged while a write is pending go out together in the next
 * one (one system call for many requests under load), and pino flushes what is left at exit.
 */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json'): Logger {
  if (format === 'pretty') {
    // For a person at a terminal: one short line an event (time, level, message, its few fields).
    return pino({ level }, pinoPretty({ destination: 1, sync: false, singleLine: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,context' }));
  }
  return pino({ level }, pino.destination({ dest: 1, sync: false }));
}

/** Nest's start-up chatter (modules loaded, every route mapped): on a terminal it would scroll the token away. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's application logger, writing through the same pino instance. */
export class PinoLoggerService implements LoggerService {
  constructor(
    private readonly logger: Logger,
    private readonly quietStartup = false,
  ) {}

  log(message: unknown, context?: string): void {
    if (this.quietStartup && context !== undefined && STARTUP_CONTEXTS.has(context)) return;
    this.write('info', message, context);
  }

  error(message: unknown, stack?: string, context?: string): void {
    this.logger.error({ context, stack }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context: string | undefined): void {
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}
