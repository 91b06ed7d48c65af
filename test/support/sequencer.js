/**
 * jest's order (the last run's failures first, then the longest first, files without timing first and the largest of
 * those first), with the shared-twin groups (test/e2e/) ahead of everything: each runs many suites one after another
 * for a minute or more, so one that started late would be the run's tail, and a fresh clone has no timing to place
 * them by (their files are small).
 */
const Sequencer = require('@jest/test-sequencer').default;

const GROUP = /[\\/]test[\\/]e2e[\\/][^\\/]+\.e2e\.test\.ts$/;

class GroupsFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((t) => GROUP.test(t.path)), ...sorted.filter((t) => !GROUP.test(t.path))];
  }
}

module.exports = GroupsFirst;
