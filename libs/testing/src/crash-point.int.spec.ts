import { join } from 'node:path';
import { CRASH_POINTS, CRASH_POINT_ENV } from './crash-point';
import { ended, spawnNode } from '@palimpsest/workspace/test-support/spawn-node';

const MODULE = join(__dirname, 'crash-point.ts');

/** A real process passes every crash point in order and says which one it reached last. */
const RUN_ALL = `
const { CRASH_POINTS, CRASH_POINT_ENV, armCrashPoint, crashPoint } = require(${JSON.stringify(MODULE)});
armCrashPoint(process.env[CRASH_POINT_ENV]); // as a composition root does
for (const point of CRASH_POINTS) {
  process.stdout.write(point + '\\n');
  crashPoint(point);
}
process.stdout.write('done\\n');
`;

describe('crashPoint', () => {
  it.each(CRASH_POINTS)('kills the process with SIGKILL at %s when the variable names it, and not before', async (point) => {
    const run = await ended(spawnNode(RUN_ALL, { ...process.env, [CRASH_POINT_ENV]: point }));
    expect(run.signal).toBe('SIGKILL');
    const reached = run.stdout.trim().split('\n');
    expect(reached[reached.length - 1]).toBe(point);
    expect(reached).not.toContain('done');
  });

  it.each([
    ['unset', undefined],
    ['naming another point', 'publication.nowhere'],
    ['empty', ''],
  ])('is inert when the variable is %s', async (_what, value) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env[CRASH_POINT_ENV];
    if (value !== undefined) env[CRASH_POINT_ENV] = value;
    const run = await ended(spawnNode(RUN_ALL, env));
    expect(run).toMatchObject({ code: 0, signal: null });
    expect(run.stdout.trim().split('\n')).toEqual([...CRASH_POINTS, 'done']);
  });
});
