import { generatedSection } from '#lib/docs/generated-section';
import { committedPerformanceTables, performanceGuide, performanceTables } from '#lib/docs/performance-tables';

describe('the performance tables', () => {
  it('are docs/performance.md’s, word for word, from the committed bench/results.json (npm run docs rewrites them)', () => {
    expect(generatedSection(performanceGuide.file, performanceGuide.section)).toBe(committedPerformanceTables());
  });

  it('give one table per section, each figure as the bench prints it, and count the targets met', () => {
    const tables = performanceTables({
      at: '2026-11-27T07:53:56.966Z',
      machine: { node: 'v20.20.2', cpus: 2, loadAverageAtStart: [2.05, 2.5, 3.24], loadAverageAtEnd: [1.9, 2, 2.9] },
      rows: [
        { section: 'Load', figure: 'throughput', value: 36540.2, unit: 'req/s' },
        { section: 'Load', figure: 'errors', value: 0, unit: '', target: '≤ 0', pass: true },
        { section: 'Sizes', figure: 'authorizer | bundle', value: 281.4, unit: 'KiB', target: '≤ 300 KiB', pass: false },
      ],
    });
    expect(tables).toBe(
      [
        'The run of 2026-11-27T07:53:56.966Z (Node v20.20.2, 2 cores, load average 2.05, 2.50, 3.24 at start and 1.90, 2.00, 2.90 at end): 1 of 2 targets met.',
        '**Load**\n\n| figure | value | target | result |\n|---|---|---|---|\n| throughput | 36,540 req/s |  |  |\n| errors | 0 | ≤ 0 | met |',
        '**Sizes**\n\n| figure | value | target | result |\n|---|---|---|---|\n| authorizer \\| bundle | 281 KiB | ≤ 300 KiB | missed |',
      ].join('\n\n'),
    );
  });
});
