import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ImageShelf } from '../../contracts/ports.js';
import type { CacheStore } from './cache-store.js';

const MB = 1024 * 1024;

/**
 * Environment images through a shared cache store: each archive its own
 * entry, keyed by what the image is built from (immutable, so never saved
 * twice), up to `budget` bytes saved per run: the repository's cache is
 * finite (10 GB on GitHub, least recently used evicted first), and an image
 * that does not fit is rebuilt on the next fresh machine instead.
 */
export class CacheImageShelf implements ImageShelf {
  private spent = 0;

  constructor(
    private readonly store: CacheStore,
    /** `<cache>/images`: the same path on every runner (it is part of an entry's version). */
    private readonly dir: string,
    private readonly budget: number,
    private readonly log: (message: string) => void,
  ) {}

  fileOf(key: string): string {
    const file = join(this.dir, key, 'image.tar.gz');
    mkdirSync(dirname(file), { recursive: true });
    return file;
  }

  async take(key: string): Promise<boolean> {
    const file = this.fileOf(key);
    const hit = await this.store.restore(
      [dirname(file)],
      { primary: key, restore: [] },
      `image ${key}`,
    );
    try {
      return hit === key && statSync(file).isFile();
    } catch {
      return false;
    }
  }

  async put(key: string, label: string): Promise<void> {
    const size = statSync(this.fileOf(key)).size;
    if (this.spent + size > this.budget) {
      this.log(
        `Not caching the image of ${label} (${mb(size)}): this run's image-cache budget is ${mb(this.budget)}` +
          (this.spent ? `, ${mb(this.spent)} of it used` : '') +
          '. The next fresh runner builds it again; raise image-cache to keep it.',
      );
      return;
    }
    this.spent += size;
    await this.store.save(
      [dirname(this.fileOf(key))],
      { primary: key, restore: [] },
      `image ${key}`,
    );
  }

  release(key: string): void {
    rmSync(join(this.dir, key), { recursive: true, force: true });
  }
}

function mb(bytes: number): string {
  return `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
}
