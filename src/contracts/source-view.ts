import { z } from 'zod';

/**
 * What a model reads through its repository tools (`context: repo`): the environment's source as
 * the harvest saw it, exported from the environment's image once per environment digest (never
 * the live container, never the host) and stored by that digest. Paths are relative, `/`-separated,
 * with no `.`, `..` or empty part; the tools resolve every path inside it (src/stages/tools/).
 */
export const SOURCE_VIEW_VERSION = 1;

export const sourceViewSchema = z.strictObject({
  version: z.literal(SOURCE_VIEW_VERSION),
  /** Where the tree was in the image (e.g. `/opt/venv/lib/python3.11/site-packages`): links into it resolve inside. */
  origin: z.string(),
  /** Path → its text (UTF-8, no NUL byte, at most SOURCE_VIEW_FILE_BYTES). */
  files: z.record(z.string(), z.string()),
  /** Path → the symbolic link's target as the image stores it (relative, or absolute in the image). */
  links: z.record(z.string(), z.string()),
  /** Files the tree holds that the tools do not show, and why (`binary`, `over 512 KiB`). */
  omitted: z.record(z.string(), z.string()),
});
export type SourceView = z.infer<typeof sourceViewSchema>;

/** The largest file a view holds as text; a larger one is listed as omitted. */
export const SOURCE_VIEW_FILE_BYTES = 512 * 1024;

/** Exported views by environment digest (the cache's `views/`). */
export interface SourceViewStore {
  get(digest: string): SourceView | undefined;
  put(digest: string, view: SourceView): void;
}

/** One file the tools show beside the exported tree: an instance's test, as the tracer read it. */
export interface OverlayFile {
  path: string;
  text: string;
}
