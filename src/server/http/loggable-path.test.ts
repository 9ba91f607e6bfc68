import { describe, expect, it } from 'vitest';
import { loggablePath } from './loggable-path.js';

describe('loggablePath', () => {
  it.each([
    ['/dl/eyJ0IjoidHJfMSJ9.c2lnbmF0dXJl', '/dl/:token'],
    ['/t/dWbyqt95dGAV3NthvcPgjl', '/t/:slug'],
    ['/api/public/transfers/dWbyqt95dGAV3NthvcPgjl/sessions', '/api/public/transfers/:slug/sessions'],
    ['/api/v1/transfers/tr_123', '/api/v1/transfers/tr_123'],
  ])('logs %s as %s', (path, logged) => {
    expect(loggablePath(path)).toBe(logged);
  });
});
