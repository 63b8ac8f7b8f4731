import { Module, type DynamicModule } from '@nestjs/common';
import { LogTransport } from './log-transport.strategy';

/** The projector microservice's module: its work is the transport's consumers, shared as a provider. */
@Module({})
export class ProjectorModule {
  static register(transport: LogTransport): DynamicModule {
    return { module: ProjectorModule, providers: [{ provide: LogTransport, useValue: transport }], exports: [LogTransport] };
  }
}
