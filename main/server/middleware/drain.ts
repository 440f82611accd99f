import type { NextFunction, Request, Response } from 'express';

/** Whether this process is draining, and the middleware that tells clients to go elsewhere. */
export interface DrainState {
  draining(): boolean;
  /** Starts draining: `/readyz` answers 503 and every response asks the client to close its connection. */
  begin(): void;
  middleware(req: Request, res: Response, next: NextFunction): void;
}

export function createDrainState(): DrainState {
  let draining = false;
  return {
    draining: () => draining,
    begin() {
      draining = true;
    },
    middleware(_req, res, next) {
      // Decided when the head is written, so a request that was in flight when draining began is
      // answered with it too: a keep-alive client would otherwise send its next request down a
      // connection about to close.
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
        if (draining) this.setHeader('Connection', 'close');
        return writeHead.apply(this, args);
      } as Response['writeHead'];
      next();
    },
  };
}
