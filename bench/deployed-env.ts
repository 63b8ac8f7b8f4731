/**
 * Benchmarks measure Palimpsest as deployed (docker/Dockerfile sets NODE_ENV=production): development
 * assertions off, in this process and in the servers it starts (they inherit its environment). An
 * explicit NODE_ENV is kept. Returns the setting, for the report's header line.
 */
export function asDeployed(): string {
  process.env.NODE_ENV ??= 'production';
  const guard = process.env.PALIMPSEST_TRANSACTION_GUARD;
  return `NODE_ENV=${process.env.NODE_ENV}${guard ? `, PALIMPSEST_TRANSACTION_GUARD=${guard}` : ''}`;
}
