import type { Db } from '@palimpsest/store/db';
import type { LogConsumer } from './log-consumer';
import { natsRelayFromEnv, type NatsRelay } from './relay/nats-relay';
import type { RelayLogger } from './relay/relay-config';

/** The NATS relay as one of the projector's log consumers, beside the projections. */
function asConsumer(relay: NatsRelay): LogConsumer {
  return {
    name: relay.options.checkpointName,
    kind: 'relay',
    start: () => relay.start(),
    stop: () => relay.stop(),
    // The relay listens on the events channel itself (and polls), so the projector's wake-up adds nothing.
    wake: () => undefined,
    status: () => relay.status(),
  };
}

/** The consumers the environment turns on besides the projections: the relay when PALIMPSEST_NATS_URL is set. */
export function environmentConsumers(db: Db, env: NodeJS.ProcessEnv, logger: RelayLogger): LogConsumer[] {
  const relay = natsRelayFromEnv(db, env, logger);
  return relay ? [asConsumer(relay)] : [];
}
