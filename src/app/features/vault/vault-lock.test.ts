import { act, fireEvent, renderHook } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MasterKey } from '../../../crypto';
import { idleMinutes, lockVault, noteVaultActivity, setIdleMinutes, unlockVaultWith, useIdleLock, useVaultKey } from './vault-lock';

const MINUTE = 60_000;
let master: MasterKey;

beforeAll(async () => {
  // Real non-extractable keys, as an unlocked vault holds: the store must hand back this very object.
  const key = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  master = { fileKeys: await key(), names: await key() };
});

afterEach(() => {
  // The key lives in module memory: one test's open vault must not be open in the next.
  lockVault();
  vi.useRealTimers();
});

/** The signed-in shell's idle lock, and what a page of usr_1 sees of the vault. */
function renderShell() {
  return renderHook(() => {
    useIdleLock();
    return useVaultKey('usr_1');
  });
}

/** Lets the clock run as a tab left alone would, the idle checks included. */
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('vault key', () => {
  it('is given only to the user whose vault was unlocked, and is gone once locked', () => {
    const { result, rerender } = renderHook(({ userId }) => useVaultKey(userId), { initialProps: { userId: 'usr_1' } });
    expect(result.current).toBeNull();

    act(() => unlockVaultWith(master, 'usr_1'));
    expect(result.current).toBe(master);

    // Another account signed in in this tab never sees it open.
    rerender({ userId: 'usr_2' });
    expect(result.current).toBeNull();
    rerender({ userId: 'usr_1' });
    expect(result.current).toBe(master);

    act(() => lockVault());
    expect(result.current).toBeNull();
  });
});

describe('idle lock', () => {
  it('locks after the chosen idle time without use, and not before', () => {
    vi.useFakeTimers();
    const { result } = renderShell();
    act(() => unlockVaultWith(master, 'usr_1'));
    expect(idleMinutes()).toBe(15);

    wait(15 * MINUTE - 1_000);
    expect(result.current).toBe(master);
    wait(6_000);
    expect(result.current).toBeNull();
  });

  it('counts a key press or a click anywhere in the tab as use', () => {
    vi.useFakeTimers();
    const { result } = renderShell();
    act(() => unlockVaultWith(master, 'usr_1'));

    wait(10 * MINUTE);
    fireEvent.keyDown(document.body, { key: 'a' });
    wait(10 * MINUTE);
    expect(result.current).toBe(master);
    fireEvent.pointerDown(window);
    wait(14 * MINUTE);
    expect(result.current).toBe(master);

    wait(MINUTE + 6_000);
    expect(result.current).toBeNull();
  });

  it('counts uploads and downloads in progress as use', () => {
    vi.useFakeTimers();
    const { result } = renderShell();
    act(() => unlockVaultWith(master, 'usr_1'));

    wait(10 * MINUTE);
    noteVaultActivity();
    wait(10 * MINUTE);
    expect(result.current).toBe(master);

    wait(5 * MINUTE + 6_000);
    expect(result.current).toBeNull();
  });

  it('follows a new idle time at once, and keeps it for next time', () => {
    vi.useFakeTimers();
    const { result } = renderShell();
    act(() => unlockVaultWith(master, 'usr_1'));

    act(() => setIdleMinutes(60));
    expect(window.localStorage.getItem('parcel.vault.idleMinutes')).toBe('60');
    expect(idleMinutes()).toBe(60);
    wait(30 * MINUTE);
    expect(result.current).toBe(master);

    act(() => setIdleMinutes(5));
    wait(5 * MINUTE - 1_000);
    expect(result.current).toBe(master);
    wait(6_000);
    expect(result.current).toBeNull();
  });

  it('falls back to 15 minutes when the stored choice is not one of the choices', () => {
    window.localStorage.setItem('parcel.vault.idleMinutes', '1');
    expect(idleMinutes()).toBe(15);
  });
});
