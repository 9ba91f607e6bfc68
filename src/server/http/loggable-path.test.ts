import { describe, expect, it } from 'vitest';
import { loggablePath } from './loggable-path.js';

describe('loggablePath', () => {
  it.each([
    ['/dl/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['/t/dWbyqt95dGAV3NthvcPgjl', '/t/:slug'],
    ['/api/public/transfers/dWbyqt95dGAV3NthvcPgjl/sessions', '/api/public/transfers/:slug/sessions'],
    ['/api/v1/transfers/tr_123', '/api/v1/transfers/tr_123'],
    ['//dl/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['///dl//eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl/x', '/dl/:token/x'],
    ['/%64l/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['/DL/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['/x/../dl/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['/./t/dWbyqt95dGAV3NthvcPgjl', '/t/:slug'],
    ['/%2Fapi/public/transfers/dWbyqt95dGAV3NthvcPgjl', '/api/public/transfers/:slug'],
    ['/%E0%A4%A/dl', '/%E0%A4%A/dl'],
  ])('logs %s as %s', (path, logged) => {
    expect(loggablePath(path)).toBe(logged);
  });
});
