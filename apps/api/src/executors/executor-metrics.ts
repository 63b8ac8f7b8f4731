import { Gauge, type Registry } from 'prom-client';
import type { ExecutorPresence } from './executor-presence';

/** Gauges of the executor registry and the relay, read at each scrape. */
export function registerExecutorMetrics(registry: Registry, presence: ExecutorPresence, relay: { readonly callsInFlight: number }): void {
  new Gauge({
    name: 'palimpsest_executors_connected',
    help: 'Executors (palimpsest connect) connected to this gateway that said hello',
    registers: [registry],
    collect() {
      this.set(presence.size);
    },
  });
  new Gauge({
    name: 'palimpsest_executor_projects',
    help: 'Projects the connected executors hold, summed over executors',
    registers: [registry],
    collect() {
      this.set(presence.projectCount);
    },
  });
  new Gauge({
    name: 'palimpsest_relay_calls_in_flight',
    help: 'Relayed tool calls sent to an executor and not answered yet (a call waiting for its executor to come back included)',
    registers: [registry],
    collect() {
      this.set(relay.callsInFlight);
    },
  });
}
