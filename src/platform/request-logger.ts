import type { FastifyBaseLogger, LogLevel } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

const SEVERITY: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/**
 * `request.log` without a pino child per request. pino's child() serialises its bindings (the
 * request id) when it is made, and Fastify makes one for every request: on a minimal Fastify
 * server here that alone cost a fifth of the rate. This logger makes the child on the first line
 * the request really writes, with the same bindings; lines below the level cost a comparison.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private writes(level: LogLevel): boolean {
    return SEVERITY[level] >= SEVERITY[this.level as LogLevel];
  }

  fatal(...args: unknown[]): void {
    if (this.writes('fatal')) (this.real().fatal as (...a: unknown[]) => void)(...args);
  }

  error(...args: unknown[]): void {
    if (this.writes('error')) (this.real().error as (...a: unknown[]) => void)(...args);
  }

  warn(...args: unknown[]): void {
    if (this.writes('warn')) (this.real().warn as (...a: unknown[]) => void)(...args);
  }

  info(...args: unknown[]): void {
    if (this.writes('info')) (this.real().info as (...a: unknown[]) => void)(...args);
  }

  debug(...args: unknown[]): void {
    if (this.writes('debug')) (this.real().debug as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]): void {
    if (this.writes('trace')) (this.real().trace as (...a: unknown[]) => void)(...args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a RequestLogger, or a real child when the route sets its own options. */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (Object.keys(options).length > 0) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
