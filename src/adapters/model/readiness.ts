import { ExitCode } from '../../errors.js';
import { TransientError } from './faults.js';
import { describeNoReply, EndpointCheckError } from './preflight-errors.js';
import { sendOnce, type TransportOptions } from './transport.js';

/** How long one look at the health route may take: a server that is up answers it at once. */
const HEALTH_TIMEOUT_MS = 5_000;
/** Pauses between looks: short at first (a server seconds away), then every 10 s. */
const PAUSES_MS = [1_000, 2_000, 3_000, 5_000, 10_000];
/** How often the wait says it is still waiting. */
const REPORT_EVERY_MS = 30_000;

/** What a look at the server's health route found; `down` says why, in words. */
export type Health = { state: 'up' } | { state: 'absent' } | { state: 'down'; why: string };

/**
 * GET the server's health route (`/health` at the server's root: vLLM, SGLang, TGI and llama.cpp
 * serve one; a 200 is "up", and only that): `absent` when the server answers it with a 404 (it
 * has none: the model list and the tiny request decide), `down` when nothing or a failure
 * answers. A health route that says "up" decides nothing: the check after it does.
 */
export async function health(endpoint: string, transport: TransportOptions): Promise<Health> {
  const url = `${new URL(endpoint).origin}/health`;
  try {
    const reply = await sendOnce(url, undefined, {
      ...transport,
      timeoutMs: Math.min(transport.timeoutMs, HEALTH_TIMEOUT_MS),
      freshConnection: true,
    });
    if (reply.status === 404 || reply.status === 405) return { state: 'absent' };
    if (reply.status >= 200 && reply.status < 300) return { state: 'up' };
    return { state: 'down', why: `${url} answers HTTP ${reply.status}, not 200, yet` };
  } catch (error) {
    if (!(error instanceof TransientError))
      return { state: 'down', why: `${url} does not answer yet: ${(error as Error).message}` };
    return error.kind === 'refused'
      ? {
          state: 'down',
          why: `nothing listens at ${new URL(endpoint).host} yet (connection refused)`,
        }
      : { state: 'down', why: `${url} does not answer yet: ${describeNoReply(error)}` };
  }
}

export interface WaitOptions {
  /** How long to wait for the server, in ms; 0: one check, as without a wait. */
  waitMs: number;
  log: (message: string) => void;
  /** An interrupt ends the wait at once. */
  signal?: AbortSignal;
}

/**
 * `endpoint-wait`: the preflight's `check`, repeated until it passes or the wait runs out — for a
 * server that is still starting (vLLM loads weights for minutes). Between checks it looks at the
 * health route, so a server that is not up yet costs no model request. A mistake of the
 * configuration (the key, the model, the URL: exit 2) ends the wait at once: waiting cannot fix it;
 * what a server that is up still fails (a 5xx on every completion) is said when the wait ends.
 */
export async function waitForEndpoint(
  endpoint: string,
  check: () => Promise<void>,
  look: () => Promise<Health>,
  options: WaitOptions,
): Promise<void> {
  if (options.waitMs <= 0) return check();
  const started = Date.now();
  const left = () => options.waitMs - (Date.now() - started);
  let reported = started;
  let healthRoute = true;
  let last: (o: (name: string) => string) => string = () => 'nothing checked yet';
  options.log(
    `Waiting up to ${Math.round(options.waitMs / 1000)} s for the model endpoint ${endpoint} to answer ` +
      '(its health route, its model list, then one tiny request).',
  );
  for (let round = 0; ; round++) {
    interrupted(options.signal);
    const seen: Health = healthRoute ? await look() : { state: 'absent' };
    if (seen.state === 'absent') healthRoute = false;
    if (seen.state === 'down') {
      const why = seen.why;
      last = () => why;
    } else
      try {
        await check();
        if (round)
          options.log(
            `Model endpoint ${endpoint} answered after ${Math.round((Date.now() - started) / 1000)} s.`,
          );
        return;
      } catch (error) {
        if (!(error instanceof EndpointCheckError) || error.exitCode !== ExitCode.Infrastructure)
          throw error;
        last = error.say;
        if (left() <= 0) throw waited(error, options.waitMs);
      }
    if (left() <= 0)
      throw new EndpointCheckError(
        ExitCode.Infrastructure,
        (o) =>
          `Model endpoint ${endpoint} did not answer within ${o('endpoint-wait')} ` +
          `${Math.round(options.waitMs / 1000)} s: ${last(o).replace(/\.$/, '')}. Start the server (or look at its log: ` +
          'a model still loading, out of memory), or give it a longer wait.',
      );
    if (Date.now() - reported >= REPORT_EVERY_MS) {
      reported = Date.now();
      options.log(
        `Still waiting for ${endpoint} (${Math.round(left() / 1000)} s left): ` +
          `${last((n) => `--${n}`).replace(/\.$/, '')}.`,
      );
    }
    await pause(
      Math.min(PAUSES_MS[Math.min(round, PAUSES_MS.length - 1)]!, left()),
      options.signal,
    );
  }
}

/** The check's own failure, saying the wait ran out before it passed. */
function waited(error: EndpointCheckError, waitMs: number): EndpointCheckError {
  return new EndpointCheckError(
    error.exitCode,
    (o) =>
      `${error.say(o).replace(/\.$/, '')} (still so after ${o('endpoint-wait')} ` +
      `${Math.round(waitMs / 1000)} s).`,
  );
}

function interrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EndpointWaitInterrupted(String(signal.reason ?? 'a signal'));
}

/** The wait was interrupted: nothing ran. */
export class EndpointWaitInterrupted extends EndpointCheckError {
  constructor(signal: string) {
    super(
      ExitCode.Interrupted,
      () => `Interrupted by ${signal} while waiting for the model endpoint.`,
    );
    this.name = 'EndpointWaitInterrupted';
  }
}

/** Resolves after `ms`, or at once when the signal fires (the loop then sees it). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
