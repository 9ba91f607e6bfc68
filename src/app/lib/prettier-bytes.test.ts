import { prettierBytes } from '@transloadit/prettier-bytes';
import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('sizes inside the uploader', () => {
  it('are the decimal sizes the rest of the product shows, through the module Uppy imports', () => {
    // An "80 MB" file as the operating system measures it in binary: 83,886,080 bytes.
    expect(prettierBytes(83_886_080)).toBe('84 MB');
    expect(prettierBytes(83_886_080)).toBe(formatBytes(83_886_080));
    expect(prettierBytes(999)).toBe('999 bytes');
  });
});
