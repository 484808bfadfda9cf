import { z } from 'zod';

/** A pinned requirement `name==version`, or a wheel file (a path ending in .whl, inside the suite). */
export const packageRefSchema = z
  .string()
  .regex(
    /^(?:[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+|[^\0]+\.whl)$/,
    'name==version, or the path of a .whl file inside the suite',
  );

/** A repository at a commit, installed into the environment. */
export const gitSourceSchema = z
  .object({
    /** A URL (https://, ssh://, git@…), a path inside the suite directory, or "self": the repository holding the suite. */
    repo: z.string().min(1),
    /** A full sha, or any name git resolves to one (the full sha goes into the digest). */
    commit: z.string().min(1),
    /**
     * `path` (default): the checkout's `paths` go on sys.path (no build step, works offline);
     * `pip`: `pip install` of the checkout (its build backend must be in `packages`);
     * `editable`: `pip install -e`.
     */
    install: z.enum(['path', 'pip', 'editable']).default('path'),
    /** Directories of the checkout put on sys.path with `install: path`, e.g. ["src"]. */
    paths: z.array(z.string().min(1)).default(['.']),
    /** A shell command run in the checkout after the install, with no network. */
    command: z.string().optional(),
  })
  .strict();

/** A prebuilt image used as it is (SWE-bench-Live and SWE-Flux images keep the repository at /testbed). */
export const imageSourceSchema = z
  .object({
    /** Image reference; pinned with `@sha256:…` it needs no engine to address. */
    ref: z.string().min(1),
    /** The interpreter inside the image that has pytest. */
    python: z.string().min(1).default('python'),
    /** The repository checkout inside the image (the `checkout` cwd). */
    workdir: z.string().startsWith('/').default('/testbed'),
  })
  .strict();

/**
 * An environment recipe: one of three sources — pinned `packages` alone, a
 * `git` repository at a commit (plus packages), or a prebuilt `image`.
 */
export const environmentSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1),
    /** Interpreter version, e.g. "3.11": picks the base image and the wheels. Not used with `image`. */
    python: z
      .string()
      .regex(/^3\.\d+$/, 'a version like "3.11"')
      .optional(),
    /** Packages to install (with --no-index from wheels resolved on the host). */
    packages: z.array(packageRefSchema).default([]),
    git: gitSourceSchema.optional(),
    image: imageSourceSchema.optional(),
    /** Overrides the default base image (`python:<python>-slim`) for this environment. */
    base_image: z.string().optional(),
  })
  .strict()
  .superRefine((env, ctx) => {
    if (env.image && env.git)
      ctx.addIssue({
        code: 'custom',
        path: ['git'],
        message: 'an environment has one source: image or git',
      });
    if (env.image && env.packages.length)
      ctx.addIssue({
        code: 'custom',
        path: ['packages'],
        message: 'an image is used as it is; build a new image to add packages',
      });
    if (env.image && env.base_image)
      ctx.addIssue({
        code: 'custom',
        path: ['base_image'],
        message: 'not used with an image source',
      });
    if (!env.image && !env.python)
      ctx.addIssue({
        code: 'custom',
        path: ['python'],
        message: 'required (e.g. "3.11") unless the source is an image',
      });
  });

export type Environment = z.infer<typeof environmentSchema>;
export type GitSource = z.infer<typeof gitSourceSchema>;
export type ImageSource = z.infer<typeof imageSourceSchema>;

/** One wheel the environment installs, as resolved on the host. */
export interface ResolvedWheel {
  /** File name, e.g. click-8.5.0-py3-none-any.whl. */
  name: string;
  sha256: string;
  /** Host path of the file (not part of the digest). */
  path: string;
}

/** What the environment's code is, exactly: the part of the digest that names the source. */
export type ResolvedSource =
  | { kind: 'packages'; wheels: ResolvedWheel[] }
  | {
      kind: 'git';
      repo: string;
      commit: string;
      wheels: ResolvedWheel[];
      /** Host directory holding the exported tree of `commit` (not part of the digest). */
      checkout: string;
    }
  | { kind: 'image'; ref: string; imageId: string };

/** Where and on what the environment runs. */
export type Runtime =
  | {
      backend: 'docker';
      /** The image the environment builds FROM, or the prebuilt image itself. */
      image: string;
      /** How that image was obtained: present, pulled, a local substitute, built. */
      note: string;
    }
  | {
      backend: 'local';
      /** The host interpreter's path and exact version. */
      python: string;
      version: string;
      note: string;
    };

/** The effective environment: resolved once, carried by every job and every oracle key. */
export interface ResolvedEnvironment {
  recipe: Environment;
  source: ResolvedSource;
  runtime: Runtime;
  /** sha256 over the source and the runtime (see environments/digest.ts). */
  digest: string;
}

/**
 * Resolves what an environment's code is, on the host: its wheels (by
 * sha256) and, for a git source, the full commit and its exported tree.
 * Image sources are resolved by the backend that can see images.
 */
export interface EnvironmentSources {
  resolve(recipe: Environment, environmentDir: string): Promise<ResolvedSource | undefined>;
}
