/** `PALIMPSEST_PROJECTOR=off` keeps a gateway from running the projector in-process. */
export function projectorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PALIMPSEST_PROJECTOR ?? '').toLowerCase() !== 'off';
}
