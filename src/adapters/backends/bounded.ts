/** Collects a stream's bytes up to a limit; past it, counts and drops. */
export class BoundedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.size + chunk.length > this.limit) {
      this.overflowed = true;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
