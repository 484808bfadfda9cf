import { ExitCode, optionName, TracegateError, type Door } from '../../errors.js';
import type { TransientError } from './faults.js';

/**
 * The endpoint failed the preflight, before any harvest: what happened and
 * what to do, with options named as the door spells them. Exit 3 when the
 * endpoint is not there or cannot answer; 2 when the configuration is wrong
 * (the key, the model), as the same mistakes are during a run.
 */
export class EndpointCheckError extends TracegateError {
  constructor(
    readonly exitCode: ExitCode,
    /** What happened and what to do, with each option named by `option` (the door's spelling). */
    readonly say: (option: (name: string) => string) => string,
  ) {
    super('');
    this.message = this.messageFor('cli');
    this.name = 'EndpointCheckError';
  }

  override messageFor(door: Door): string {
    return `${this.say((name) => optionName(name, door))} Checked before any harvest: nothing ran.`;
  }
}

/** A failure with no reply at all, in words: refused, DNS, timeout, reset. */
export function describeNoReply(error: TransientError): string {
  const code = error.message.split(' ')[0];
  switch (error.kind) {
    case 'refused':
      return 'connection refused (ECONNREFUSED: nothing listens there)';
    case 'dns':
      return `DNS lookup failed (${code}: the host name does not resolve)`;
    case 'timeout':
      return error.message.replace('no complete response', 'no answer');
    default:
      return `the connection failed (${error.message})`;
  }
}

/** Nothing answered `request` (`GET url`, `POST url`): the server is not there. */
export function unreachable(
  endpoint: string,
  request: string,
  error: TransientError,
): EndpointCheckError {
  return new EndpointCheckError(
    ExitCode.Infrastructure,
    (o) =>
      `Model endpoint ${endpoint} is unreachable: ${describeNoReply(error)} on ${request}. ` +
      `Start the server, or give ${o('endpoint')} its API base URL (e.g. http://127.0.0.1:8000/v1).`,
  );
}
