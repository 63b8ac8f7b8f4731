/**
 * Each client session's active project (seed 004: the active project belongs to the client): an MCP
 * session's id, or over HTTP the X-Correlation-Id the client sends with each call. Kept in the gateway's
 * memory, bounded: the least recently chosen is forgotten first past `max` clients.
 */
export class ActiveProjects {
  private readonly chosen = new Map<string, string>();

  constructor(private readonly max = 10_000) {}

  get(client: string | undefined): string | null {
    return client === undefined ? null : (this.chosen.get(client) ?? null);
  }

  set(client: string, projectId: string): void {
    this.chosen.delete(client);
    this.chosen.set(client, projectId);
    if (this.chosen.size > this.max) this.chosen.delete(this.chosen.keys().next().value!);
  }
}
