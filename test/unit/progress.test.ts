import { Progress } from '../../src/util/progress.js';

/** Progress lines with a clock the test moves: what a CI log shows, and how often. */
describe('progress lines', () => {
  it('says done/total, the rate and the time left, at most every 5 s, and always the last', () => {
    let now = 0;
    const lines: string[] = [];
    const p = new Progress(
      'Answers',
      100,
      'instances',
      (l) => lines.push(l),
      () => now,
    );
    now = 1000;
    p.tick(10); // the first line comes at once
    now = 2000;
    p.tick(10); // within 5 s of the last: quiet
    now = 7000;
    p.tick(30);
    now = 20_000;
    p.tick(50);
    expect(lines).toEqual([
      'Answers: 10/100 instances (10%), 10.0/s, about 9 s left',
      'Answers: 50/100 instances (50%), 7.1/s, about 7 s left',
      'Answers: 100/100 instances (100%) in 20 s',
    ]);
  });

  it('never passes its total, and says nothing of an empty phase', () => {
    const lines: string[] = [];
    let now = 0;
    new Progress(
      'Oracles',
      0,
      'instances',
      (l) => lines.push(l),
      () => now,
    ).tick(3);
    const p = new Progress(
      'Oracles',
      2,
      'instances',
      (l) => lines.push(l),
      () => now,
    );
    now = 125_000;
    p.tick(5);
    expect(lines).toEqual(['Oracles: 2/2 instances (100%) in 2 min 5 s']);
  });

  it('rounds the whole duration, so a minute never shows 60 seconds', () => {
    const lines: string[] = [];
    let now = 0;
    const p = new Progress(
      'Oracles',
      1,
      'instances',
      (l) => lines.push(l),
      () => now,
    );
    now = 539_600;
    p.tick();
    expect(lines).toEqual(['Oracles: 1/1 instances (100%) in 9 min 0 s']);
  });
});
