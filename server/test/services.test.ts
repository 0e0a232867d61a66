import { describe, expect, it } from 'vitest';
import { serviceKey, Services } from '../src/core/services.js';

// Areas hand services to one another through typed keys (core/services.ts) rather than slots on the context.
describe('services', () => {
  const CLOCK = serviceKey<{ now(): number }>('test.clock');

  it('answers what was provided, and fails clearly on what was not', () => {
    const services = new Services();
    expect(services.find(CLOCK)).toBeUndefined();
    expect(() => services.get(CLOCK)).toThrow('service test.clock is not provided');
    const clock = { now: () => 42 };
    services.provide(CLOCK, clock);
    expect(services.get(CLOCK).now()).toBe(42);
    expect(services.find(CLOCK)).toBe(clock);
  });

  it('refuses a second provider, and lets a test swap one in', () => {
    const services = new Services();
    services.provide(CLOCK, { now: () => 1 });
    expect(() => services.provide(CLOCK, { now: () => 2 })).toThrow('service test.clock is provided twice');
    services.replace(CLOCK, { now: () => 3 });
    expect(services.get(CLOCK).now()).toBe(3);
  });

  it('tells keys apart by identity, not by name', () => {
    const services = new Services();
    services.provide(CLOCK, { now: () => 1 });
    expect(services.find(serviceKey<{ now(): number }>('test.clock'))).toBeUndefined();
  });
});
