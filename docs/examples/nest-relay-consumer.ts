/**
 * A NestJS microservice that receives the relay's events with @EventPattern over NATS (docs/relay.md).
 * Runnable: `runExampleConsumer()` listens on PALIMPSEST_NATS_URL for RELAY_EXAMPLE_PATTERN (default
 * `palimpsest.target.>`) and prints each envelope as a JSON line; apps/projector/src/relay/nest-consumer-example.int.spec.ts
 * starts it as a process beside a real relay.
 */
import { Controller, Module, type INestMicroservice, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, NatsContext, Payload, ServerNats, type ConsumerDeserializer, type IncomingEvent } from '@nestjs/microservices';
import { connect } from 'nats';
import type { RelayEnvelope } from '../../apps/projector/src/relay/relay-envelope';

/**
 * The envelope has a top-level `data` field, which Nest's default NATS deserializer takes for its own
 * packet format (it would hand the handler `data` alone): pass the whole envelope instead.
 */
export class RelayEnvelopeDeserializer implements ConsumerDeserializer {
  deserialize(msg: { json(): unknown }, options?: Record<string, unknown>): IncomingEvent {
    return { pattern: options?.channel, data: msg.json() };
  }
}

/**
 * Nest 12's NATS transport loads @nats-io/transport-node, which needs Node 22. On Node 20 (this repo) the
 * same transport runs over the `nats` 2.x client, whose subscribe/status API it uses unchanged.
 * On Node 22 use `transport: Transport.NATS` and drop this class.
 */
export class NatsV2Server extends ServerNats {
  constructor(private readonly natsOptions: { servers: string[]; deserializer: ConsumerDeserializer; queue?: string }) {
    super(natsOptions);
  }

  override async createNatsClient(): Promise<unknown> {
    return connect({ servers: this.natsOptions.servers, name: 'relay-consumer-example' });
  }
}

/** The controller as an application writes it; the pattern is a parameter only so that tests can isolate it. */
export function targetEventsModule(pattern: string, onEvent: (envelope: RelayEnvelope, subject: string, msgId: string | undefined) => void): Type {
  @Controller()
  class TargetEventsController {
    @EventPattern<string>(pattern)
    handle(@Payload() envelope: RelayEnvelope, @Ctx() context: NatsContext): void {
      onEvent(envelope, context.getSubject(), context.getHeaders()?.get('Nats-Msg-Id'));
    }
  }
  @Module({ controllers: [TargetEventsController] })
  class TargetEventsModule {}
  return TargetEventsModule;
}

export async function startConsumer(module: Type, servers: string[]): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(module, {
    strategy: new NatsV2Server({ servers, deserializer: new RelayEnvelopeDeserializer() }),
    logger: false,
  });
  await app.listen();
  return app;
}

export async function runExampleConsumer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const pattern = env.RELAY_EXAMPLE_PATTERN || 'palimpsest.target.>';
  const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  const app = await startConsumer(
    targetEventsModule(pattern, (envelope, subject, msgId) => print({ msg: 'event', subject, msgId, envelope })),
    (env.PALIMPSEST_NATS_URL || 'nats://127.0.0.1:4222').split(','),
  );
  print({ msg: 'listening', pattern });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
