/**
 * Progress of a long phase as log lines: done/total, the rate and the time
 * left, at most one line every `everyMs` (CI logs stay readable) and always
 * the last. The clock is injected so the lines can be tested exactly.
 */
export class Progress {
  private done = 0;
  private readonly started: number;
  private lastLine = -Infinity;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit: string,
    private readonly emit: (line: string) => void,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 5000,
  ) {
    this.started = now();
  }

  /** `n` more items are finished. */
  tick(n = 1): void {
    if (!this.total || n <= 0) return;
    this.done = Math.min(this.total, this.done + n);
    const at = this.now();
    if (this.done < this.total && at - this.lastLine < this.everyMs) return;
    this.lastLine = at;
    this.emit(this.line(at));
  }

  line(at = this.now()): string {
    const seconds = Math.max(0.001, (at - this.started) / 1000);
    const rate = this.done / seconds;
    const pct = Math.floor((100 * this.done) / this.total);
    const head = `${this.label}: ${this.done}/${this.total} ${this.unit} (${pct}%)`;
    if (this.done === this.total) return `${head} in ${duration(seconds)}`;
    const left = rate > 0 ? (this.total - this.done) / rate : Infinity;
    return `${head}, ${rate.toFixed(1)}/s, about ${duration(left)} left`;
  }
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'an unknown time';
  const whole = Math.round(seconds); // 539.6 s is 9 min 0 s, never 8 min 60 s
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
