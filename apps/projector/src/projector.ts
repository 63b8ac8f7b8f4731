import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import type { Db } from '@palimpsest/store/db';
import { LogTransport } from './log-transport.strategy';
import type { RunningProcessor } from './processor-slot';
import { projectorConsumer, type ProjectorOptions } from './projector-consumer';
import { ProjectorModule } from './projector.module';

export interface RunningProjector {
  readonly transport: LogTransport;
  readonly processors: readonly RunningProcessor[];
  close(): Promise<void>;
}

/** The projector's transport, for a Nest application to connect as a microservice (the gateway does). */
export function projectorTransport(db: Db, opts: ProjectorOptions = {}): LogTransport {
  return new LogTransport(projectorConsumer(db, opts));
}

/** The projector as a standalone Nest microservice on an open, migrated store. */
export async function startProjector(db: Db, opts: ProjectorOptions = {}): Promise<RunningProjector> {
  const transport = projectorTransport(db, opts);
  const app: INestMicroservice = await NestFactory.createMicroservice(ProjectorModule.register(transport), { strategy: transport, logger: false });
  await app.listen();
  let closed: Promise<void> | undefined;
  return { transport, processors: transport.unwrap(), close: () => (closed ??= app.close()) };
}
