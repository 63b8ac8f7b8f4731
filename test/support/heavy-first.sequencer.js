const Sequencer = require('@jest/test-sequencer').default;

/**
 * The order Jest's workers take suites in, so that the last ones to finish are short. Jest's own
 * order puts the slowest first by the durations it cached from an earlier run; without them (a fresh
 * checkout, CI) it goes by file size, which leaves small but slow e2e suites (a packed install, an agent
 * over stdio) for the end, one worker busy with them while the other idles. Here, without durations,
 * the projects go slowest kind first (e2e: real processes; int: a database; unit), each by size; with
 * the durations of every suite, Jest's order as it is.
 */
const KIND_FIRST = ['e2e', 'int', 'unit'];
const kind = (test) => {
  const rank = KIND_FIRST.indexOf(test.context.config.displayName?.name);
  return rank === -1 ? KIND_FIRST.length : rank;
};

class HeavyFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.every((test) => test.duration != null)) return sorted;
    // Suites that failed last time still come first; Array.prototype.sort is stable, so within a kind
    // Jest's order (then size) stays.
    const failed = (test) => (this.hasFailed(test) ? 0 : 1);
    return [...sorted].sort((a, b) => failed(a) - failed(b) || kind(a) - kind(b));
  }
}

module.exports = HeavyFirstSequencer;
