import { Gauge, type Registry } from 'prom-client';
import { projectorStatus, type ProjectorStatus } from '@palimpsest/application/queries/projector-status.handler';
import type { Db } from '@palimpsest/store/db';

const STATES = ['running', 'catching_up', 'rebuilding', 'stopped'] as const;

/**
 * The asynchronous consumers' status (the same as /health's info.projections) as gauges, read once per
 * scrape: checkpoint, lag in events and seconds, state (1 for the current one) and leader (an info
 * gauge labelled host:pid, present while someone leads). A scrape while the database is down exports
 * none of them.
 */
export function registerProjectionMetrics(registry: Registry, db: Db, thresholdSeconds: number): void {
  let pending: Promise<ProjectorStatus | null> | null = null;
  const read = () =>
    (pending ??= projectorStatus(db, thresholdSeconds)
      .catch(() => null)
      .finally(() => setTimeout(() => (pending = null), 0)));
  const labels = ['consumer', 'kind'] as const;
  const gauge = (name: string, help: string, labelNames: readonly string[], fill: (g: Gauge<string>, status: ProjectorStatus) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        const status = await read();
        if (status) fill(this, status);
      },
    });
  gauge('palimpsest_projection_checkpoint_position', 'Global position of the last event the consumer handled', labels, (g, s) => {
    for (const c of s.consumers) g.set({ consumer: c.name, kind: c.kind }, c.checkpoint.position);
  });
  gauge('palimpsest_projection_lag_events', 'Committed events the consumer has not handled yet', labels, (g, s) => {
    for (const c of s.consumers) g.set({ consumer: c.name, kind: c.kind }, c.lag_events);
  });
  gauge('palimpsest_projection_lag_seconds', 'Age of the oldest committed event the consumer has not handled (0 when caught up)', labels, (g, s) => {
    for (const c of s.consumers) g.set({ consumer: c.name, kind: c.kind }, c.lag_seconds);
  });
  gauge('palimpsest_projection_state', 'The consumer\'s state: 1 for the current one', [...labels, 'state'], (g, s) => {
    for (const c of s.consumers) for (const state of STATES) g.set({ consumer: c.name, kind: c.kind, state }, c.state === state ? 1 : 0);
  });
  gauge('palimpsest_projection_leader', 'Who holds the consumer\'s leader lease (1, labelled host:pid)', [...labels, 'leader'], (g, s) => {
    for (const c of s.consumers) if (c.leader) g.set({ consumer: c.name, kind: c.kind, leader: c.leader }, 1);
  });
  gauge('palimpsest_projection_lag_degraded_seconds', '/health is degraded when a consumer lags by more than this', [], (g, s) => {
    g.set(s.lag_threshold_seconds);
  });
}
