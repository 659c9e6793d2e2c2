import type { ComposeTrend, MonitorFactsOf } from './trend-document';

// Stand-ins with the contract's signatures until the trend's composition proper replaces this file.

export const monitorFacts: MonitorFactsOf = () => ({ questions: [], competitors: [] });

export const composeTrend: ComposeTrend = ({ client, runs }) => {
  const latest = [...runs].sort((a, b) => a.madeAt.localeCompare(b.madeAt)).at(-1) ?? null;
  return {
    version: 1,
    client,
    latest: latest?.document ?? null,
    series: { number: latest?.series ?? 1, since: latest?.madeAt ?? null, earlierRuns: 0 },
    runs: [],
    changes: [],
    shareOfVoice: [],
    competitorsNew: [],
    competitorsGone: [],
    questionsWon: [],
    questionsLost: [],
  };
};
