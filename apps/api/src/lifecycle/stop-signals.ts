/** The signals that stop a server gracefully. SIGHUP is the terminal closing: the lock and the published credential go too. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** After a hangup the terminal may be gone: a failed write to it must not end the stop half-way. */
export function ignoreLostTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}
