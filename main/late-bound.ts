/**
 * A port the composition hands out before what answers it exists, for the few real cycles between
 * parts: the services enqueue into a queue that is built from their jobs; the model manager asks the
 * engines whether a model is in use, and the engines read its installed models. Each is bound once,
 * right after both sides are made and before anything runs; a use before that is a wiring mistake
 * and says which port, instead of failing later on `undefined`.
 */
export interface LateBound<T> {
  get(): T;
  bind(value: T): void;
}

export function lateBound<T>(what: string): LateBound<T> {
  let cell: { value: T } | undefined;
  return {
    get() {
      if (!cell) throw new Error(`${what} used before the composition bound it`);
      return cell.value;
    },
    bind(value) {
      if (cell) throw new Error(`${what} bound twice`);
      cell = { value };
    },
  };
}
