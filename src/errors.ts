/**
 * Typed errors, decided at the edge. Every error a user can cause or fix
 * carries the exit code the CLI returns for it and says what to do.
 *
 * Exit codes: 0 pass, 1 gate failed, 2 bad usage/config/instance,
 * 3 infrastructure unavailable (Docker engine, model endpoint), 4 inconclusive
 * (with `--on-inconclusive neutral`, the default).
 */
export const ExitCode = {
  Pass: 0,
  GateFailed: 1,
  Usage: 2,
  Infrastructure: 3,
  /** The gate could not decide (too few items, too much missing, a drop not ruled out). */
  Inconclusive: 4,
  /** Interrupted by SIGINT/SIGTERM: what was obtained is kept, marked incomplete. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The two doors into the one application: the CLI's flags and the Action's
 * inputs. An error about an option names it as the door it came through
 * spells it.
 */
export type Door = 'cli' | 'action';

/** An option as `door` spells it in an error: `--endpoint` (CLI) or `input endpoint` (Action). */
export function optionName(name: string, door: Door): string {
  return door === 'cli' ? `--${name}` : `input ${name}`;
}

/** Base class: a message for humans and the exit code it maps to. */
export abstract class TracegateError extends Error {
  abstract readonly exitCode: ExitCode;

  /** The message with its options named as `door` spells them; `message` is the CLI's. */
  messageFor(_door: Door): string {
    return this.message;
  }
}

/** Bad flags, inputs or configuration. */
export class UsageError extends TracegateError {
  readonly exitCode = ExitCode.Usage;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A malformed instance or environment file; names the file and the field. */
export class InstanceError extends TracegateError {
  readonly exitCode = ExitCode.Usage;
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'InstanceError';
  }
}

/** No Docker engine reachable (and no cached oracle to fall back on). */
export class DockerUnavailableError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(detail: string, remote?: { host: string; tls: boolean }) {
    super(
      remote
        ? `The Docker engine at DOCKER_HOST=${remote.host} did not answer (${detail}). Check that the ` +
            'engine listens there and this machine can reach it' +
            (remote.tls
              ? "; with TLS, that DOCKER_CERT_PATH holds ca.pem (the CA that signed the engine's " +
                "certificate, issued for this address) and this client's cert.pem and key.pem, " +
                'signed by the CA the engine trusts (--tlscacert)'
              : '; a TLS engine needs DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH') +
            '. Or unset DOCKER_HOST to use the local engine.'
        : `No Docker engine reachable (${detail}). Start one (e.g. \`sudo systemctl start docker\`, ` +
            'or run scripts/ensure-docker.sh), point DOCKER_HOST at it, or pass --backend local ' +
            'to harvest in a virtualenv on this host.',
    );
    this.name = 'DockerUnavailableError';
  }
}

/** A harvest step failed for infrastructure reasons (image build, container). */
export class HarvestError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(message: string) {
    super(message);
    this.name = 'HarvestError';
  }
}

/** The model endpoint could not be reached or kept failing after retries. */
export class EndpointUnavailableError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(
    readonly endpoint: string,
    readonly detail: string,
    readonly resultsAt = 'the results file',
  ) {
    super('');
    this.message = this.messageFor('cli');
    this.name = 'EndpointUnavailableError';
  }

  override messageFor(door: Door): string {
    return (
      `Model endpoint ${this.endpoint} is unavailable: ${this.detail}. Check that the server is running ` +
      `and that ${optionName('endpoint', door)} is its API base URL (e.g. http://127.0.0.1:8000/v1). ` +
      `Answers obtained so far were kept in ${this.resultsAt}.`
    );
  }
}

/** Exit code for any thrown value: ours carry one, anything else is a bug (2 would lie). */
export function exitCodeOf(error: unknown): number {
  return error instanceof TracegateError ? error.exitCode : ExitCode.Infrastructure;
}

/** What to tell the user of `door` about any thrown value. */
export function messageOf(error: unknown, door: Door = 'cli'): string {
  if (error instanceof TracegateError) return error.messageFor(door);
  return error instanceof Error ? error.message : String(error);
}

/** The endpoint answered but refused the request itself (unknown model, bad key): fix the config. */
export class EndpointRejectedError extends TracegateError {
  readonly exitCode = ExitCode.Usage;
  constructor(
    readonly endpoint: string,
    readonly serverMessage: string,
    readonly resultsAt = 'the results file',
  ) {
    super('');
    this.message = this.messageFor('cli');
    this.name = 'EndpointRejectedError';
  }

  override messageFor(door: Door): string {
    return (
      // The server's own sentence usually ends with its full stop already.
      `Model endpoint ${this.endpoint} rejected the request: ${this.serverMessage.replace(/\.$/, '')}. ` +
      `Check ${optionName('model', door)} and the API key. ` +
      `Answers obtained so far were kept in ${this.resultsAt}.`
    );
  }
}

/** The run was interrupted (Ctrl-C, SIGTERM); its results say they are incomplete. */
/**
 * A baseline should exist but could not be looked up: the commit graph or
 * the history could not be read (an API error, the network). The gate's
 * verdict is then `baseline-unavailable`, never a pass.
 */
export class BaselineUnavailableError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(readonly detail: string) {
    super(`the baseline could not be looked up: ${detail}`);
    this.name = 'BaselineUnavailableError';
  }
}

export class InterruptedError extends TracegateError {
  readonly exitCode = ExitCode.Interrupted;
  /** `kept`: what was kept and what a rerun does, when the caller knows better than "the answers". */
  constructor(signal: string, resultsAt: string, kept?: string) {
    super(
      `Interrupted by ${signal}: containers and temporary files were removed; ` +
        (kept ??
          `the answers obtained so far are in ${resultsAt}, marked incomplete with the instances still missing.`),
    );
    this.name = 'InterruptedError';
  }
}
