/** A misuse of the engine or a limit of the device, with a message meant for a person. */
export class BackendError extends Error {
  override name = 'BackendError';
}

/** Raised by any backend call made after the GPU device was lost. */
export class DeviceLostError extends BackendError {
  override name = 'DeviceLostError';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(`GPU device lost (${reason}): ${message}`);
  }
}
