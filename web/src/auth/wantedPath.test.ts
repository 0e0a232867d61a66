import { describe, expect, it } from 'vitest';
import { loginStateFor, noteDeliberateSignOut, noteSession, noteSessionExpired, safeReturnPath, sessionExpiredIn, wantedPathOf } from './wantedPath';

const ORIGIN = 'https://console.example.com';

describe('safeReturnPath', () => {
  it('keeps same-origin paths with their query and hash', () => {
    expect(safeReturnPath('/desk/notice', ORIGIN)).toBe('/desk/notice');
    expect(safeReturnPath('/desk/notice?id=1#top', ORIGIN)).toBe('/desk/notice?id=1#top');
  });

  it('refuses other origins and schemes', () => {
    for (const raw of ['//evil.com/x', '/\\evil.com', '/\t/evil.com', 'https://evil.com/', 'javascript:alert(1)', 'desk/notice', '', null, undefined, 42]) {
      expect(safeReturnPath(raw, ORIGIN)).toBeNull();
    }
  });

  it('never returns to the login page', () => {
    expect(safeReturnPath('/login', ORIGIN)).toBeNull();
    expect(safeReturnPath('/login?x=1', ORIGIN)).toBeNull();
  });
});

describe('login state', () => {
  it('carries the wanted page, unless the user signed out on purpose', () => {
    expect(wantedPathOf(loginStateFor('/desk/notice'), ORIGIN)).toBe('/desk/notice');
    noteDeliberateSignOut(true);
    expect(loginStateFor('/desk/notice')).toBeUndefined();
    noteDeliberateSignOut(false);
    expect(wantedPathOf(loginStateFor('/desk/notice'), ORIGIN)).toBe('/desk/notice');
  });

  it('reads nothing from a missing or odd state', () => {
    for (const state of [null, undefined, 'x', { from: 5 }, { from: '//evil.com' }]) expect(wantedPathOf(state, ORIGIN)).toBeNull();
  });

  it('says the session expired when the server ended it, never after a deliberate sign-out', () => {
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(false);
    noteSessionExpired(true);
    const state = loginStateFor('/wel/index');
    expect(sessionExpiredIn(state)).toBe(true);
    expect(wantedPathOf(state, ORIGIN)).toBe('/wel/index');
    // signing out on purpose forgets an expiry, and a 401 answered meanwhile does not pass for one
    noteDeliberateSignOut(true);
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(false);
    noteSessionExpired(true);
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(false);
    // signed in again
    noteDeliberateSignOut(false);
    noteSessionExpired(false);
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(false);
    for (const odd of [null, undefined, 'expired', { expired: 'yes' }]) expect(sessionExpiredIn(odd)).toBe(false);
  });

  it('keeps an expiry when the ended session is read back for a moment, and forgets it once another session starts', () => {
    noteSession('token-a');
    noteSessionExpired(true, 'token-a');
    noteSession('token-a');
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(true);
    noteSession('token-b');
    expect(sessionExpiredIn(loginStateFor('/wel/index'))).toBe(false);
  });
});
