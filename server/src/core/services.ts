/**
 * A typed name of a service: an area provides it (`provide`), others look it up (`get`, `find`). Core declares
 * the keys of the services it consumes itself (with its own interfaces); an area exports the keys of its own
 * services from its public `index.ts`.
 */
export interface ServiceKey<T> {
  readonly name: string;
  /** never set: carries the service's type */
  readonly type?: T;
}

export function serviceKey<T>(name: string): ServiceKey<T> {
  return { name };
}

/** The services of one server, by key. */
export class Services {
  private readonly byKey = new Map<ServiceKey<unknown>, unknown>();

  provide<T>(key: ServiceKey<T>, service: T): T {
    if (this.byKey.has(key)) throw new Error(`service ${key.name} is provided twice`);
    this.byKey.set(key, service);
    return service;
  }

  /** the service; fails when no area provides it (its area is missing from server/src/areas/index.ts, or not started yet) */
  get<T>(key: ServiceKey<T>): T {
    if (!this.byKey.has(key)) throw new Error(`service ${key.name} is not provided`);
    return this.byKey.get(key) as T;
  }

  /** the service, or undefined where its absence is legitimate (a service started with the background work) */
  find<T>(key: ServiceKey<T>): T | undefined {
    return this.byKey.get(key) as T | undefined;
  }

  /** swaps a service for another (a test's stand-in) */
  replace<T>(key: ServiceKey<T>, service: T): void {
    this.byKey.set(key, service);
  }
}
