const { statSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Where a file of each project usually falls among the suite's longest: a browser file first. */
const PROJECT_ORDER = ['browser', 'integration', 'unit'];

/**
 * Longest files first, so that no long file starts last and runs alone at the end. Jest does
 * this itself from the timings of an earlier run; on a fresh machine (CI) it has none and falls
 * back to file size, which put a 75 s browser file of small size last. Without timings, files go
 * by project (browser files are the longest: a page, a browser and axe each), then by size.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    const timed = tests.every((test) => this._getCache(test)[test.path]?.[1] !== undefined);
    if (timed) return super.sort(tests);
    const rank = (test) => {
      const index = PROJECT_ORDER.indexOf(test.context.config.displayName?.name ?? '');
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    const size = (test) => statSync(test.path).size;
    return [...tests].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

module.exports = LongestFirst;
