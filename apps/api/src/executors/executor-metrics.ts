import { Gauge, type Registry } from 'prom-client';
import type { ExecutorPresence } from './executor-presence';

/** Gauges of the executor registry, read at each scrape. */
export function registerExecutorMetrics(registry: Registry, presence: ExecutorPresence): void {
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
}
