/** Whether this process is draining (the front door then asks every client to close its connection). */
export interface DrainState {
  draining(): boolean;
  /** Starts draining: `/readyz` answers 503 and every response asks the client to close its connection. */
  begin(): void;
}

export function createDrainState(): DrainState {
  let draining = false;
  return {
    draining: () => draining,
    begin() {
      draining = true;
    },
  };
}
