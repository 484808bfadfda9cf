/** A request the server rejected for good (4xx other than 408/429): retrying cannot help. */
export class ModelRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ModelRequestError';
  }
}

/**
 * The reply to this one request is unusable and asking again would not help
 * (e.g. a body over the size limit). Recorded against the instance; the run goes on.
 */
export class ModelResponseError extends Error {
  constructor(
    readonly errorClass: 'response_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'ModelResponseError';
  }
}
